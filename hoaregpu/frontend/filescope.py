"""File-scope `__device__`, `__constant__` (and `__shared__`) variables (issue 9, item 6).

A kernel that uses one gets it as an extra parameter: global memory, shared by all threads,
with unknown contents on entry, like an array parameter (a scalar one stays shared even
when the kernel assigns it, unlike a by-value parameter). Annotations of that kernel may
name it. A `__constant__` variable with an initialiser holds the initialiser's values on
entry (a `requires` of the kernel: the host could overwrite them with
`cudaMemcpyToSymbol`, and then the proof does not speak of that launch); a kernel may not
write it. A `__device__` variable's initialiser says nothing (earlier launches may have
changed it). A `const` host variable with a constant integer value is that constant.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..errors import CONSTANT_INITIALISER, Span, SpecError
from ..syntax import Clause, ClauseKind, Decl, Declarator, Param
from ..terms import Binary, BinOp, IntLit, Term, Var
from . import clang
from .aggregates import Aggregates
from .ckinds import strip

# the most initialised cells a `__constant__` variable's entry fact spells out (a bigger
# table has unknown contents, which is sound: nothing is assumed of it)
MAX_CONSTANT_CELLS = 1024
FILE_SCOPE_HINT = "kernels may use file-scope '__device__' and '__constant__' variables and const integers"


@dataclass
class FileScope(Aggregates):
    # the file-scope variables the kernel being translated uses: C name -> (declaration, first use)
    globals_used: dict[str, tuple[Any, Any]] = field(default_factory=dict)

    def global_ref(self, cur: Any, ref: Any) -> Term:
        K = self.K
        span = self.span(cur)
        attrs = {ch.kind for ch in ref.get_children()}
        if not attrs & {K.CUDADEVICE_ATTR, K.CUDACONSTANT_ATTR, K.CUDASHARED_ATTR}:
            ty = ref.type.get_canonical()
            if ty.is_const_qualified() and ty.kind.name not in ("CONSTANTARRAY", "RECORD"):
                value = clang.constant_value(cur)
                if value is not None:
                    return IntLit(value, span)
            raise self.unsupported(f"host variable '{cur.spelling}' in device code", cur, FILE_SCOPE_HINT)
        self.globals_used.setdefault(ref.spelling, (ref, cur))
        return Var(ref.spelling, (), span)

    def is_constant(self, ref: Any) -> bool:
        return bool(
            ref is not None
            and ref.kind == self.K.VAR_DECL
            and ref.lexical_parent is not None
            and ref.lexical_parent.kind == self.K.TRANSLATION_UNIT
            and any(ch.kind == self.K.CUDACONSTANT_ATTR for ch in ref.get_children())
        )

    def root_ref(self, cur: Any) -> Any:
        """The variable an lvalue expression (`c`, `c[i]`, `s.f`, `p->f[2]`) is part of."""
        K = self.K
        while True:
            cur = strip(cur, K)
            if cur.kind in (K.ARRAY_SUBSCRIPT_EXPR, K.MEMBER_REF_EXPR):
                children = [ch for ch in cur.get_children() if ch.kind.is_expression()]
                if not children:
                    return None
                cur = children[0]
            elif cur.kind == K.DECL_REF_EXPR:
                return cur.referenced
            else:
                return None

    def lvalue(self, cur: Any) -> Var:
        ref = self.root_ref(cur)
        if self.is_constant(ref):
            raise SpecError(
                f"'{ref.spelling}' is a __constant__ variable: a kernel cannot write it", self.span(cur)
            )
        return super().lvalue(cur)

    def check_constant_argument(self, param: Any, arg: Any) -> None:
        """A `__constant__` array passed to a device function: its pointer must be to const
        (Clang then rejects writes through it)."""
        ref = self.root_ref(arg)
        if not self.is_constant(ref):
            return
        ty = param.type
        pointee = ty.get_pointee() if ty.kind == self.ci.TypeKind.POINTER else ty.element_type
        if not pointee.is_const_qualified():
            raise self.unsupported(
                f"passing the __constant__ variable '{ref.spelling}' as a pointer to non-const",
                arg,
                f"declare the parameter '{param.spelling}' as a pointer to const",
            )

    def global_params(self) -> tuple[list[Param], list[Clause], list[Decl]]:
        """The used file-scope variables as parameters, the entry facts of the constant ones,
        and the declarations that begin the kernel for the `__shared__` ones (per block)."""
        TK = self.ci.TypeKind
        params: list[Param] = []
        facts: list[Clause] = []
        shared: list[Decl] = []
        for name, (ref, use) in self.globals_used.items():
            span = self.span(ref) if clang.in_file(ref, self.tu_path) else self.span(use)
            ty = ref.type.get_canonical()
            dims = 0
            while ty.kind in (TK.CONSTANTARRAY, TK.INCOMPLETEARRAY):
                ty, dims = ty.element_type.get_canonical(), dims + 1
            if ty.kind == TK.POINTER:
                raise self.unsupported(f"file-scope pointer variable '{name}'", use, FILE_SCOPE_HINT)
            if any(ch.kind == self.K.CUDASHARED_ATTR for ch in ref.get_children()):
                # `extern __shared__ int s[];` at file scope: each block's shared memory
                sizes = tuple(IntLit(0, span) for _ in range(dims))  # arrays are unbounded maps
                if ty.kind == TK.RECORD:
                    shared += self.struct_decls(name, True, sizes, ty, ref)
                else:
                    btype = self.base_type(ty, ref, ref.type.spelling)
                    shared.append(Decl(True, btype, (Declarator(name, sizes, None, span),), span))
                continue
            if ty.kind == TK.RECORD:
                for leaf in self.leaves(ty, ref, ref.type.spelling):
                    btype = self.base_type(leaf.type, ref, leaf.type.spelling)
                    params.append(Param(name + leaf.suffix, btype, dims + len(leaf.extents), span, True))
            else:
                params.append(Param(name, self.base_type(ty, ref, ref.type.spelling), dims, span, True))
            fact = self.constant_fact(name, ref, span)
            if fact is not None:
                marked = Span(
                    span.path, span.line, span.col, (*span.context, f"{CONSTANT_INITIALISER}'{name}'")
                )
                facts.append(Clause(ClauseKind.REQUIRES, fact, marked))
        return params, facts, shared

    def constant_fact(self, name: str, ref: Any, span: Span) -> Term | None:
        """`c[0] == 1 && c[1] == 2 && ...` for `__constant__ int c[] = {1, 2, ...};`."""
        if not self.is_constant(ref):
            return None
        inits = [ch for ch in ref.get_children() if ch.kind.is_expression()]
        if ref.type.get_canonical().kind.name.endswith("ARRAY"):  # the others are extents
            inits = [ch for ch in inits if ch.kind == self.K.INIT_LIST_EXPR]
        if not inits:
            return None
        values: dict[tuple[str, tuple[int, ...]], Term] = {}
        self.initial_values(ref.type, inits[-1], "", (), values, self.constant_scalar)
        if not values or len(values) > MAX_CONSTANT_CELLS:
            return None
        fact: Term | None = None
        for (suffix, cell), value in values.items():
            cell_var = Var(name + suffix, tuple(IntLit(i, span) for i in cell), span)
            eq = Binary(BinOp.EQ, cell_var, value, span)
            fact = eq if fact is None else Binary(BinOp.AND, fact, eq, span)
        return fact

    def constant_scalar(self, cur: Any | None, ty: Any) -> Term | None:
        if cur is None:
            return IntLit(0)  # static storage: what the initialiser leaves out is zero
        value = clang.constant_value(cur)
        return None if value is None else IntLit(int(value != 0) if ty.kind.name == "BOOL" else value)

    def check_global_shadowing(self, cursors: list[Any]) -> None:
        """Inlined device functions are resolved by name in the kernel's scopes: a local or
        parameter named like a file-scope variable in use could capture it."""
        if not self.globals_used:
            return
        K = self.K
        for root in cursors:
            for d in clang.descendants(root):
                if d.kind in (K.VAR_DECL, K.PARM_DECL) and d.spelling in self.globals_used:
                    if self.globals_used[d.spelling][0] == d:
                        continue
                    raise self.unsupported(
                        f"local or parameter '{d.spelling}' named like the file-scope variable it hides",
                        d,
                        "rename it",
                    )
