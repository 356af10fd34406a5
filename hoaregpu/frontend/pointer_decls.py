"""Pointer variables' frames and declarations (with `pointers.py`, whose docstring says
why the translation is sound): a function's pointer parameters and the aliases of the
memory its pointers may point into, at its entry or right after each declaration; `int *p
= e;` as the offset `p.off` and, with several targets, the selector `p.sel`."""

from __future__ import annotations

from typing import Any

from ..errors import SpecError
from ..syntax import AliasDecl, BaseType, Block, Decl, Declarator, Stmt
from ..terms import Binary, BinOp, Conditional, IntLit, Term, Var
from .pointer_analysis import Target, decl_id, expr_children, is_pointer_decl, pointee
from .pointers import POINTER_HINT, Frame, Pointers, PtrVal, PtrVar, _where


class PointerDecls(Pointers):
    def kernel_pointers(self, function: Any) -> list[Stmt]:
        """A kernel's (or contract function's) frame: its pointer parameters point into
        themselves; an assigned one is a pointer variable starting at offset 0."""
        params = [p for p in function.get_arguments() if is_pointer_decl(p)]
        seeds = {decl_id(p): frozenset({Target(decl_id(p), "", (), False, p.spelling, p)}) for p in params}
        frame = self.push_pointer_frame(function, seeds)
        entry: list[Stmt] = []
        needed = frame.needed
        for p in params:
            if decl_id(p) in needed:
                entry += self.alias_for(p, p.spelling)
            if decl_id(p) not in frame.analysis.assigned:
                frame.vars[decl_id(p)] = PtrVar(p.spelling, tuple(seeds[decl_id(p)]), None, None)
                frame.by_name[p.spelling] = decl_id(p)
                continue
            value = PtrVal(tuple(seeds[decl_id(p)]), (frame.aliases[decl_id(p)],), None, IntLit(0))
            entry += self.declare_pointer(p, False, value)
        return [*entry, *self.global_aliases(frame)]

    def global_aliases(self, frame: Frame) -> list[Stmt]:
        """File-scope targets: named by their own names (no local may shadow them)."""
        out: list[Stmt] = []
        for ts in frame.analysis.pts.values():
            for t in ts:
                ref = t.cursor
                if t.decl in frame.aliases or ref is None or ref.semantic_parent is None:
                    continue
                if ref.semantic_parent.kind == self.K.TRANSLATION_UNIT:
                    term = self.global_ref(ref, ref)
                    if isinstance(term, Var):
                        frame.aliases[t.decl] = term.name
        return out

    def alias_for(self, decl: Any, name: str) -> list[Stmt]:
        """The alias of a target's memory (every scalar field of a struct), valid from here."""
        assert self.frame is not None
        self.fresh_count += 1
        alias = f"{decl.spelling}.mem.{self.fresh_count}"
        self.frame.aliases[decl_id(decl)] = alias
        span = self.span(decl)
        record = self.record_of(decl.type)
        if record is None:
            return [AliasDecl(alias, name, span)]
        leaves = self.leaves(record, decl, self.written(decl.type))
        return [AliasDecl(alias + leaf.suffix, name + leaf.suffix, span) for leaf in leaves]

    def after_decl(self, cur: Any) -> list[Stmt]:
        """After a local declaration: the alias of its memory if a pointer may point into it."""
        frame = self.frame
        if frame is None or decl_id(cur) not in frame.needed or is_pointer_decl(cur):
            return []
        return self.alias_for(cur, cur.spelling)

    # ------------------------------------------------------------ declarations

    def pointer_decl(self, cur: Any, shared: bool, sizes: int) -> Block:
        """`int *p;`, `int *p = e;`, `__shared__ int *p;`."""
        if sizes:
            raise self.unsupported("arrays of pointers", cur, POINTER_HINT)
        self.check_pointee(pointee(cur), cur)
        init = expr_children(cur)
        value = self.pointer_value(init[-1]) if init else None
        if shared and value is not None:
            raise SpecError("a '__shared__' variable cannot have an initialiser", self.span(cur))
        return Block(tuple(self.declare_pointer(cur, shared, value)), self.span(cur), scoped=False)

    def check_pointee(self, pointee: Any, cur: Any) -> None:
        kind = pointee.kind.name
        if kind in ("POINTER",):
            raise self.unsupported("pointers to pointers", cur, POINTER_HINT)
        if kind in ("FUNCTIONPROTO", "FUNCTIONNOPROTO"):
            raise self.unsupported("function pointers", cur, "call device functions by name")
        if kind == "VOID":
            raise self.unsupported("'void *' pointers", cur, POINTER_HINT)

    def declare_pointer(self, cur: Any, shared: bool, value: PtrVal | None) -> list[Stmt]:
        frame = self.frame
        assert frame is not None
        key = decl_id(cur)
        found = frame.analysis.pts.get(key, frozenset())
        # in source order (the numbering of `p.sel` is then the same in every run)
        targets = tuple(sorted(found, key=lambda t: (_where(t.cursor), t.suffix, t.lead, t.scalar)))
        name = cur.spelling
        var = PtrVar(name, targets, f"{name}.off", f"{name}.sel" if len(targets) > 1 else None)
        span = self.span(cur)
        off_init = value.off if value is not None else None
        sel_init = self.select(var, value, cur) if value is not None else None
        out: list[Stmt] = [Decl(shared, BaseType.INT, (Declarator(f"{name}.off", (), off_init, span),), span)]
        if var.sel is not None:
            out.append(Decl(shared, BaseType.INT, (Declarator(var.sel, (), sel_init, span),), span))
        frame.vars[key] = var
        frame.pointer_names.add(name)
        frame.by_name[name] = None if name in frame.by_name else key
        return out

    def select(self, var: PtrVar, value: PtrVal | None, cur: Any) -> Term | None:
        """The selector of `var` for `value` (None: `var` has one target)."""
        if value is None:
            return None
        index = []
        for t in value.targets:
            if t not in var.targets:
                raise self.unsupported(
                    f"pointer '{var.name}' pointing into '{t.label}' here", cur, POINTER_HINT
                )
            index.append(var.targets.index(t))
        if var.sel is None:
            return None
        if value.sel is None:
            return IntLit(index[0])
        if index == list(range(len(index))):
            return value.sel
        out: Term = IntLit(index[-1])
        for j in range(len(index) - 2, -1, -1):
            out = Conditional(Binary(BinOp.EQ, value.sel, IntLit(j)), IntLit(index[j]), out)
        return out
