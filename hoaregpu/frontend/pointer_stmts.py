"""Pointer statements (the second half of `pointers.py`, whose docstring says why the
translation is sound): `p = e`, `p += k`, `p++`; writes through a pointer with several
targets as an `if` over them; pointers passed to inlined device functions; and pointers in
our annotations (`p[i]`, and comparisons and differences `p == a + k`, `p - q`)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..errors import Span, SpecError
from ..syntax import AliasDecl, AssignOp, AssignStmt, BaseType, Block, Decl, Declarator, IfStmt, Stmt
from ..term_walk import map_children
from ..terms import Access, Aggregate, Binary, BinOp, Conditional, IntLit, Quant, Term, Var
from . import clang
from .ckinds import ASSIGN, COMPOUND
from .pointer_analysis import Place, decl_id, pointee, pointer_type
from .pointer_decls import PointerDecls
from .pointers import POINTER_HINT, PtrVal, PtrVar


class PointerStatements(PointerDecls):
    # ------------------------------------------------------------ device functions

    def argument(self, param: Any, arg: Any) -> Any:
        """An argument's value in the caller: a PtrVal for a pointer parameter."""
        if param.type.get_canonical().kind.name in ("POINTER", "INCOMPLETEARRAY", "CONSTANTARRAY"):
            self.check_pointee(pointee(param), param)
            return self.pointer_value(arg)
        return self.struct_source(arg) if self.is_record(param.type) else self.expr(arg)

    def pointer_argument(
        self, param: Any, value: PtrVal, arg: Any, contract: bool, names: dict[str, str]
    ) -> tuple[list[Stmt], list[Stmt]]:
        """A pointer parameter of an inlined function (the callee's frame is the current one):
        the statements in the caller (the value's offset and selector) and at the callee's
        entry (aliases of the memory it may point into, the parameter). An array's own name,
        never assigned in the callee, is the array itself (an alias), as before pointers."""
        frame = self.frame
        assert frame is not None
        span = self.span(arg)
        key = decl_id(param)
        entry: list[Stmt] = []
        (only,) = value.targets if len(value.targets) == 1 else (None,)
        plain = (
            only is not None
            and not only.scalar
            and not only.lead
            and not only.suffix
            and isinstance(value.off, IntLit)
            and value.off.value == 0
            and key not in frame.analysis.assigned
        )
        needed = frame.needed
        seen: set[str] = set()
        for t, name in zip(value.targets, value.names, strict=True):
            if t.decl not in seen and t.cursor is not None and (not plain or t.decl in needed):
                seen.add(t.decl)
                entry += self.alias_for(t.cursor, name)
        if plain:
            assert only is not None
            name = value.names[0]
            record = self.record_of(param.type)
            if record is None:
                entry.append(AliasDecl(param.spelling, name, span))
                names[param.spelling] = name
            for leaf in self.leaves(record, param, self.written(param.type)) if record is not None else []:
                entry.append(AliasDecl(param.spelling + leaf.suffix, name + leaf.suffix, span))
                names[param.spelling + leaf.suffix] = name + leaf.suffix
            frame.vars[key] = PtrVar(param.spelling, value.targets, None, None)
            frame.by_name[param.spelling] = None if param.spelling in frame.by_name else key
            return [], entry
        if contract:
            raise self.unsupported(
                "a pointer argument that is not an array's name, to a function with a contract", arg
            )
        temp = self.fresh_temp("pointer")
        before: list[Stmt] = [Decl(False, BaseType.INT, (Declarator(temp, (), value.off, span),), span)]
        stmts = self.declare_pointer(param, False, replace(value, off=Var(temp, (), span)))
        decl = stmts[-1]
        if isinstance(decl, Decl) and len(stmts) == 2:  # the selector: computed in the caller too
            sel = self.fresh_temp("selector")
            (d,) = decl.declarators
            before.append(Decl(False, BaseType.INT, (Declarator(sel, (), d.init, span),), span))
            stmts[-1] = Decl(False, BaseType.INT, (replace(d, init=Var(sel, (), span)),), span)
        return before, entry + stmts

    # ------------------------------------------------------------ statements

    def pointer_stmt(self, cur: Any) -> Stmt | None:
        """`p = e`, `p += k`, `p++` on a pointer variable; a write through a pointer with
        several targets. None: not one of these."""
        frame = self.frame
        if frame is None or not frame.pointer_names:
            return None  # no pointer variable: nothing to assign, nothing with several targets
        K = self.K
        span = self.span(cur)
        target = None
        assign = cur.kind == K.BINARY_OPERATOR and clang.binary_operator(cur) == ASSIGN
        if assign or cur.kind == K.COMPOUND_ASSIGNMENT_OPERATOR:
            target, value = cur.get_children()
        elif cur.kind == K.UNARY_OPERATOR and clang.unary_operator(cur) in (1, 2, 3, 4):
            (target,) = cur.get_children()
            value = None
        if target is None:
            return None
        if self.var_of(target) is not None or pointer_type(target.type):
            var = self.var_of(target)
            if var is None or var.off is None:
                raise self.unsupported("assignment to this pointer", cur, POINTER_HINT)
            if value is not None and cur.kind == K.BINARY_OPERATOR:
                return Block(
                    tuple(self.assign_pointer(var, self.pointer_value(value), cur)), span, scoped=False
                )
            current = self.var_value(var, target)
            if value is None:
                delta: Term = IntLit(1 if clang.unary_operator(cur) in (1, 3) else -1, span)
            else:
                op = COMPOUND.get(clang.binary_operator(cur))
                if op not in (AssignOp.ADD, AssignOp.SUB):
                    raise self.unsupported("this compound assignment to a pointer", cur, POINTER_HINT)
                delta = self.index_term(value)
                if op is AssignOp.SUB:
                    delta = Binary(BinOp.SUB, IntLit(0), delta, span)
            assert var.off is not None
            return AssignStmt(Var(var.off, (), span), AssignOp.SET, self.moved(current, delta, cur), span)
        pl = self.through(target)
        if pl is None:
            return None
        pointer = self.pointer_value(pl.base)
        if len(pointer.targets) < 2:
            return None  # one target: an ordinary assignment to the Var `expr` gives
        if cur.kind != K.BINARY_OPERATOR or value is None or self.is_record(target.type):
            raise self.unsupported(
                "this assignment through a pointer with several targets", cur, POINTER_HINT
            )
        return self.dispatched_write(pl, pointer, target, value, cur)

    def assign_pointer(self, var: PtrVar, value: PtrVal, cur: Any) -> list[Stmt]:
        span = self.span(cur)
        assert var.off is not None
        sel = self.select(var, value, cur)
        if var.sel is None or sel is None:
            return [AssignStmt(Var(var.off, (), span), AssignOp.SET, value.off, span)]
        temp = self.fresh_temp("offset")
        return [
            Decl(False, BaseType.INT, (Declarator(temp, (), value.off, span),), span),
            AssignStmt(Var(var.sel, (), span), AssignOp.SET, sel, span),
            AssignStmt(Var(var.off, (), span), AssignOp.SET, Var(temp, (), span), span),
        ]

    def dispatched_write(self, pl: Place, pointer: PtrVal, target: Any, value: Any, cur: Any) -> Stmt:
        """`t = e; if (p.sel == 0) a[..] = t; else ...`: value and indices computed once."""
        span = self.span(cur)
        stmts: list[Stmt] = []

        def hoisted(term: Term, btype: BaseType) -> Term:
            if isinstance(term, IntLit):
                return term
            name = self.fresh_temp("through")
            stmts.append(Decl(False, btype, (Declarator(name, (), term, span),), span))
            return Var(name, (), span)

        stored = hoisted(
            self.store(self.expr(value), target.type, value),
            self.base_type(target.type.get_canonical(), target, target.type.spelling),
        )
        first = IntLit(0) if pl.indices[0] is None else self.index_term(pl.indices[0])
        first = hoisted(first, BaseType.INT)
        rest = [hoisted(self.index_term(i), BaseType.INT) for i in pl.indices[1:]]
        sel = hoisted(pointer.sel if pointer.sel is not None else IntLit(0), BaseType.INT)
        self.ptr_writing = True
        try:
            chain = self.access(replace(pointer, sel=sel), pl.suffix, first, rest, cur)
        finally:
            self.ptr_writing = False
        branch: Stmt | None = None
        cells: list[Var] = []
        while isinstance(chain, Conditional):
            assert isinstance(chain.then, Var)
            cells.append(chain.then)
            chain = chain.orelse
        assert isinstance(chain, Var)
        cells.append(chain)
        for j in range(len(cells) - 1, -1, -1):
            write = AssignStmt(cells[j], AssignOp.SET, stored, span)
            branch = (
                write
                if branch is None
                else IfStmt(Binary(BinOp.EQ, sel, IntLit(j), span), write, branch, span)
            )
        assert branch is not None
        return Block((*stmts, branch), span, scoped=False)

    # ------------------------------------------------------------ annotations

    def pointer_annot(self, annot: Any) -> Any:
        """An annotation in a body, with `p[i]` for pointer variables read as their memory."""
        frame = self.frame
        if frame is None or not frame.pointer_names:
            return annot  # only pointer variables (not parameters that are arrays) are read anew
        clauses = tuple(replace(c, formula=self.pointer_formula(c.formula)) for c in annot.clauses)
        return replace(annot, clauses=clauses)

    def pointer_formula(self, term: Term, bound: frozenset[str] = frozenset()) -> Term:
        """Our annotations' `p[i]` for a pointer variable `p`: the memory it points to."""
        frame = self.frame
        if frame is None or not frame.by_name:
            return term
        if isinstance(term, Quant):
            return replace(term, body=self.pointer_formula(term.body, bound | set(term.names)))
        if isinstance(term, Aggregate):
            low, high = self.pointer_formula(term.low, bound), self.pointer_formula(term.high, bound)
            body = self.pointer_formula(term.body, bound | {term.name})
            return replace(term, low=low, high=high, body=body)
        if isinstance(term, Binary) and (term.op.is_comparison or term.op is BinOp.SUB):
            left, right = self.annot_pointer(term.left, bound), self.annot_pointer(term.right, bound)
            if left is not None and right is not None:
                if len(left.targets) != 1 or left.targets != right.targets:
                    raise SpecError(
                        "comparing pointers that may point into different objects",
                        term.span or Span("", 1, 1),
                    )
                return replace(term, left=left.off, right=right.off)
        if isinstance(term, Access) and term.any_cell and isinstance(term.target, Var):
            name = term.target.name
            if name in frame.by_name and name not in bound:
                what = term.kind.value
                raise SpecError(
                    f"pointer '{name}' in '{what}(...)': an access fact names an array, or a"
                    f" pointer with a cell",
                    term.span or term.target.span or Span("", 1, 1),
                    f"write '{what}({name}, i)' (the cell {name}[i]) or '{what}(a)' with the array"
                    f" '{name}' points into",
                )
        if isinstance(term, Var) and term.name in frame.by_name and term.name not in bound:
            key = frame.by_name[term.name]
            span = term.span or Span("", 1, 1)
            if key is None or not term.indices:
                raise SpecError(
                    f"pointer '{term.name}' in an annotation: write '{term.name}[i]'"
                    " (one pointer of that name per function)",
                    span,
                )
            var = frame.vars[key]
            indices = [self.pointer_formula(i, bound) for i in term.indices]
            if var.off is None:
                return replace(term, indices=tuple(indices))
            return self.access(self.var_value(var, span), "", indices[0], indices[1:], span)
        return map_children(term, lambda t: self.pointer_formula(t, bound))

    def annot_pointer(self, term: Term, bound: frozenset[str]) -> PtrVal | None:
        """A pointer in an annotation: a pointer's name, `p + k`, `p - k`; None: not one."""
        frame = self.frame
        assert frame is not None
        if isinstance(term, Var) and not term.indices and term.name not in bound:
            key = frame.by_name.get(term.name)
            if key is None:
                return None
            return self.var_value(frame.vars[key], term.span or Span("", 1, 1))
        if isinstance(term, Binary) and term.op in (BinOp.ADD, BinOp.SUB):
            base = self.annot_pointer(term.left, bound)
            other = term.right
            if base is None and term.op is BinOp.ADD:
                base, other = self.annot_pointer(term.right, bound), term.left
            if base is None or self.annot_pointer(other, bound) is not None:
                return None
            delta = self.pointer_formula(other, bound)
            if term.op is BinOp.SUB:
                delta = Binary(BinOp.SUB, IntLit(0), delta, term.span)
            return replace(base, off=self.moved(base, delta, term.span or Span("", 1, 1)))
        return None
