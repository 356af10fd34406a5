"""Structs, flattened (issue 9, item 6): every struct-typed variable is one variable per
(nested) scalar field.

`S a[]` with fields `x`, `y` is the two arrays `a.x`, `a.y`; `S s` is the scalars `s.x`,
`s.y`; a field that is an array adds its extents after the variable's own, so `a[i].v[j]`
is `a.v[i][j]`. `p->f` on a pointer `p` is `p[0].f`. A struct assignment (`t = s`, an
initialiser, a by-value argument) copies every scalar cell. The names cannot clash with
C names (a dot cannot occur in one) nor with the renamings of lowering (`x.1`) and of
inlining (`f.x.3`), whose last part is a number, never a field name.

Supported fields: the integer types, `bool`, `float` and `double` (opaque values,
`hoaregpu.floats`), fixed-size arrays and structs of them;
in a struct parameter by value also pointers to integers, floats and `bool` (`A.p` is then
an array parameter, which other pointer parameters do not alias). A struct with base
classes holds their fields first, under their own names (`p.x` is the field `x` of a
base), as C++ lays them out; a field hiding a base's field of the same name and virtual
bases are rejected. Unions, bit-fields, pointer fields elsewhere,
and structs with constructors or member functions (whose copies C++ may not make field by
field) are rejected with the type as the user wrote it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from itertools import product
from typing import Any

from ..errors import Span, SpecError
from ..floats import literal
from ..syntax import AssignOp, AssignStmt, BaseType, Block, Decl, Declarator, Param, Stmt
from ..term_walk import subterms
from ..terms import IntLit, Term, Var
from . import clang
from .ckinds import SIGNED, UNSIGNED, is_prelude, strip
from .expressions import ExpressionTranslator
from .floats import FLOAT_KINDS

STRUCT_HINT = (
    "struct fields may be integers, bool, float, double, fixed-size arrays and structs of them"
    " (no unions, bit-fields, pointer fields, virtual bases or member functions)"
)
# the most scalar cells one struct copy may spell out (each is an assignment)
MAX_COPY_CELLS = 256


@dataclass(frozen=True)
class Leaf:
    """One scalar field of a struct type, with the extents of the arrays it sits in."""

    suffix: str  # ".x", ".inner.y"
    extents: tuple[int, ...]
    type: Any  # Clang's canonical scalar type (a pointer field's: what it points to)
    pointer: bool = False  # a pointer field (only of a struct parameter by value: an array)

    def cells(self) -> Iterator[tuple[int, ...]]:
        return product(*(range(n) for n in self.extents))


# the value of one scalar cell of a struct-valued expression
Source = Callable[[Leaf, tuple[int, ...]], Term]


def _lits(cell: tuple[int, ...], span: Span | None) -> tuple[Term, ...]:
    return tuple(IntLit(i, span) for i in cell)


@dataclass
class Aggregates(ExpressionTranslator):
    fresh_count: int = 0
    _leaf_cache: dict[str, list[Leaf]] = field(default_factory=dict)

    # ------------------------------------------------------------ types

    def is_record(self, ty: Any) -> bool:
        return bool(ty.get_canonical().kind == self.ci.TypeKind.RECORD)

    def leaves(self, ty: Any, cur: Any, written: str, pointers: bool = False) -> list[Leaf]:
        """The scalar fields of the struct type `ty` (`written`: the type as the user wrote it);
        with `pointers`, a pointer field to integers is a leaf too (a struct parameter by value:
        the field is an array in global memory, which no other pointer parameter aliases)."""
        ty = ty.get_canonical()
        key = f"{ty.spelling}#{pointers}"
        if key in self._leaf_cache:
            return self._leaf_cache[key]
        self.check_record(ty, cur, written)
        TK = self.ci.TypeKind
        out: list[Leaf] = self.base_leaves(ty, cur, written)  # C++ lays out the bases first
        for f in ty.get_fields():
            if f.is_bitfield():
                raise self.unsupported(f"bit-field '{f.spelling}' of '{written}'", cur, STRUCT_HINT)
            if not f.spelling:
                raise self.unsupported(f"anonymous member of '{written}'", cur, STRUCT_HINT)
            ft = f.type.get_canonical()
            extents: list[int] = []
            while ft.kind == TK.CONSTANTARRAY:
                extents.append(ft.get_array_size())
                ft = ft.element_type.get_canonical()
            if ft.kind == TK.RECORD:
                for leaf in self.leaves(ft, cur, f.type.spelling, pointers):
                    suffix, leaf_extents = f".{f.spelling}{leaf.suffix}", (*extents, *leaf.extents)
                    out.append(Leaf(suffix, leaf_extents, leaf.type, leaf.pointer))
            elif ft.kind.name in SIGNED or ft.kind.name in UNSIGNED or ft.kind.name in ("BOOL", *FLOAT_KINDS):
                out.append(Leaf(f".{f.spelling}", tuple(extents), ft))
            elif pointers and ft.kind == TK.POINTER and not extents and _scalar(ft.get_pointee()):
                out.append(Leaf(f".{f.spelling}", (), ft.get_pointee().get_canonical(), True))
            else:
                raise self.unsupported(
                    f"field '{f.spelling}' of type '{f.type.spelling}' in '{written}'", cur, STRUCT_HINT
                )
        self._leaf_cache[key] = out
        return out

    def base_leaves(self, ty: Any, cur: Any, written: str) -> list[Leaf]:
        """The fields of the base classes of `ty`, in order: a derived struct holds its bases'
        fields under their own names (`p.x` is the `x` of base `s` in `struct t : s {}`)."""
        out: list[Leaf] = []
        names: set[str] = set()  # the fields' own names, which must stay unique
        own = [f.spelling for f in ty.get_fields()]
        for ch in ty.get_declaration().get_children():
            if ch.kind != self.K.CXX_BASE_SPECIFIER:
                continue
            if any(t.spelling == "virtual" for t in clang.tokens(self.tu, ch)):
                raise self.unsupported(f"struct type '{written}' with a virtual base class", cur, STRUCT_HINT)
            leaves = self.leaves(ch.type, cur, ch.type.spelling)
            here = {leaf.suffix.split(".")[1] for leaf in leaves}
            clash = sorted(here & (names | set(own)))
            if clash:  # `p.x` names one of them, `p.s::x` the other: one variable cannot be both
                raise self.unsupported(
                    f"field '{clash[0]}' of '{written}' declared twice (in a base class and again)",
                    cur,
                    STRUCT_HINT,
                )
            names |= here
            out.extend(leaves)
        return out

    def check_record(self, ty: Any, cur: Any, written: str) -> None:
        decl = ty.get_canonical().get_declaration()
        K = self.K
        if decl.kind == K.UNION_DECL:
            raise self.unsupported(f"union type '{written}'", cur, STRUCT_HINT)
        if is_prelude(decl):
            return  # the vector types and dim3 (whose constructor only sets defaults)
        bad = {
            K.CONSTRUCTOR: "constructors",
            K.DESTRUCTOR: "a destructor",
            K.CXX_METHOD: "member functions",
            K.FUNCTION_TEMPLATE: "member functions",
            K.CONVERSION_FUNCTION: "member functions",
        }
        for ch in decl.get_children():
            if ch.kind in bad:
                raise self.unsupported(f"struct type '{written}' with {bad[ch.kind]}", cur, STRUCT_HINT)

    def written(self, ty: Any) -> str:
        """The element type as the user wrote it (`P` for a parameter `P *a`, typedefs kept)."""
        TK = self.ci.TypeKind
        peel = (TK.POINTER, TK.CONSTANTARRAY, TK.INCOMPLETEARRAY, TK.VARIABLEARRAY)
        while ty.get_canonical().kind in peel:
            if ty.kind not in peel:  # a typedef of a pointer: only the canonical type peels
                ty = ty.get_canonical()
            ty = ty.get_pointee() if ty.kind == TK.POINTER else ty.element_type
        return str(ty.spelling)

    def record_of(self, ty: Any) -> Any | None:
        """The struct type that `ty` is, points to, or is an array of (None if none)."""
        ty = ty.get_canonical()
        TK = self.ci.TypeKind
        while ty.kind in (TK.POINTER, TK.CONSTANTARRAY, TK.INCOMPLETEARRAY, TK.VARIABLEARRAY):
            ty = (ty.get_pointee() if ty.kind == TK.POINTER else ty.element_type).get_canonical()
        return ty if ty.kind == TK.RECORD else None

    # ------------------------------------------------------------ expressions

    def member(self, cur: Any) -> Term:
        """`s.f`, `a[i].f`, `p->f` (= `p[0].f`): the flattened field, still indexed as written."""
        children = [ch for ch in cur.get_children() if ch.kind.is_expression()]
        if len(children) != 1:
            raise self.unsupported("member access without an object", cur, STRUCT_HINT)
        (base,) = children
        target = self.expr(base)
        if not isinstance(target, Var):
            raise self.unsupported(f"member access '.{cur.spelling}' on this expression", cur, STRUCT_HINT)
        bt = base.type.get_canonical()
        record = bt.get_pointee() if bt.kind == self.ci.TypeKind.POINTER else bt
        self.leaves(record, base, self.written(base.type), pointers=True)  # checks the type
        indices = target.indices
        if bt.kind == self.ci.TypeKind.POINTER:
            indices = (*indices, IntLit(0, self.span(cur)))
        return Var(f"{target.name}.{cur.spelling}", indices, target.span)

    def struct_source(self, cur: Any) -> Source:
        """The value of a struct-typed expression, cell by cell."""
        K = self.K
        cur = strip(cur, K)
        if cur.kind == K.CALL_EXPR and cur.referenced is not None and cur.referenced.kind == K.CONSTRUCTOR:
            args = [ch for ch in cur.get_children() if ch.kind.is_expression()]
            if len(args) == 1 and self.is_record(args[0].type):
                return self.struct_source(args[0])  # the implicit copy constructor
            raise self.unsupported("constructor call", cur, STRUCT_HINT)
        if cur.kind == K.INIT_LIST_EXPR:
            values: dict[tuple[str, tuple[int, ...]], Term] = {}
            self.initial_values(cur.type, cur, "", (), values, self.init_scalar)
            return lambda leaf, cell: values[(leaf.suffix, cell)]
        term = self.expr(cur)
        if not isinstance(term, Var):
            raise self.unsupported("this struct-valued expression", cur, "copy a struct variable or cell")
        return lambda leaf, cell: Var(
            term.name + leaf.suffix, (*term.indices, *_lits(cell, term.span)), term.span
        )

    @staticmethod
    def struct_source_var(name: str, span: Span | None) -> Source:
        """The value of the struct variable `name` (not indexed)."""
        return lambda leaf, cell: Var(name + leaf.suffix, _lits(cell, span), span)

    def init_scalar(self, cur: Any | None, ty: Any) -> Term | None:
        if cur is None:  # members without an initialiser are zero in C
            return literal(0.0) if ty.get_canonical().kind.name in FLOAT_KINDS else IntLit(0)
        if strip(cur, self.K).kind == self.K.INIT_LIST_EXPR:
            raise self.unsupported("braces around a scalar initialiser", cur)
        if self.record_of(cur.type) is not None:  # `{s}` for a struct: braces elided
            raise self.unsupported("a struct initialised by a struct in braces", cur, "write '= s'")
        return self.store(self.expr(cur), ty, cur)

    def initial_values(
        self,
        ty: Any,
        cur: Any | None,
        suffix: str,
        cell: tuple[int, ...],
        out: dict[tuple[str, tuple[int, ...]], Term],
        scalar: Callable[[Any | None, Any], Term | None],
    ) -> None:
        """The cells an initialiser `cur` (an init list, a struct value, or None: zero) gives
        to an object of type `ty`, keyed by (field suffix, indices); `scalar` reads one value
        (None: unknown, the cell is left out)."""
        K, TK = self.K, self.ci.TypeKind
        ty = ty.get_canonical()
        node = strip(cur, K) if cur is not None else None
        if ty.kind in (TK.CONSTANTARRAY, TK.RECORD):
            if node is not None and node.kind != K.INIT_LIST_EXPR:
                if ty.kind == TK.RECORD:  # a struct value for a struct member
                    source = self.struct_source(node)
                    for leaf in self.leaves(ty, node, node.type.spelling):
                        for c in leaf.cells():
                            out[(suffix + leaf.suffix, (*cell, *c))] = source(leaf, c)
                    return
                raise self.unsupported("array member initialised without braces", node, "write '{...}'")
            items = [ch for ch in node.get_children() if ch.kind.is_expression()] if node is not None else []
            if ty.kind == TK.CONSTANTARRAY:
                n = ty.get_array_size()
                if len(items) > n:
                    raise SpecError(f"{len(items)} initialisers for an array of {n}", self.span(node))
                for i in range(n):
                    item = items[i] if i < len(items) else None
                    self.initial_values(ty.element_type, item, suffix, (*cell, i), out, scalar)
                return
            self.leaves(ty, node if node is not None else cur, ty.spelling)  # checks the type
            fields = list(ty.get_fields())
            if len(items) > len(fields) or any(ch.kind.name.startswith("DESIGNATED") for ch in items):
                raise self.unsupported("this struct initialiser", node, "list the fields in order: '{1, 2}'")
            for i, f in enumerate(fields):
                item = items[i] if i < len(items) else None
                self.initial_values(f.type, item, f"{suffix}.{f.spelling}", cell, out, scalar)
            return
        value = scalar(node, ty)
        if value is not None:
            out[(suffix, cell)] = value

    # ------------------------------------------------------------ statements

    def struct_decls(self, name: str, shared: bool, sizes: tuple[Term, ...], ty: Any, cur: Any) -> list[Decl]:
        """The declarations of a struct variable (or array of structs) `name`: one per field."""
        span = self.span(cur)
        out: list[Decl] = []
        for leaf in self.leaves(ty, cur, cur.type.spelling):
            btype = self.base_type(leaf.type, cur, leaf.type.spelling)
            extents = tuple(IntLit(n, span) for n in leaf.extents)
            out.append(
                Decl(shared, btype, (Declarator(name + leaf.suffix, (*sizes, *extents), None, span),), span)
            )
        return out

    def struct_params(self, cur: Any, ty: Any, dims: int, span: Span) -> list[Param]:
        """A kernel parameter `S s`, `S *a`, `S a[]`: one parameter per field."""
        leaves = self.leaves(ty, cur, self.written(cur.type), pointers=dims == 0)
        if dims == 0 and any(leaf.extents for leaf in leaves):
            # by value, an array field would be each thread's own copy, not global memory
            raise self.unsupported(
                f"struct parameter '{cur.spelling}' by value with an array field", cur, "pass a pointer"
            )
        return [
            Param(
                cur.spelling + leaf.suffix,
                self.base_type(leaf.type, cur, leaf.type.spelling),
                dims + len(leaf.extents) + leaf.pointer,
                span,
            )
            for leaf in leaves
        ]

    def struct_decl(
        self, cur: Any, shared: bool, sizes: tuple[Term, ...], ty: Any, init: Any | None
    ) -> Block:
        """`S s;`, `S s = t;`, `S s = {1, 2};`, `__shared__ S s[N];`, `S buf[4];`."""
        span = self.span(cur)
        stmts: list[Stmt] = list(self.struct_decls(cur.spelling, shared, sizes, ty, cur))
        node = strip(init, self.K) if init is not None else None
        ctor = node.referenced if node is not None and node.kind == self.K.CALL_EXPR else None
        if node is not None and ctor is not None and ctor.kind == self.K.CONSTRUCTOR:
            if any(ch.kind == self.K.CONSTRUCTOR for ch in ty.get_declaration().get_children()):
                # dim3's constructor sets defaults (a file's structs with constructors are rejected)
                raise self.unsupported(f"type '{cur.type.spelling}' built by its constructor", cur)
            if not list(node.get_arguments()):
                node = None  # a trivial default constructor: the fields stay uninitialised
        if node is not None:
            if shared:
                raise SpecError("a '__shared__' variable cannot have an initialiser", span)
            if sizes:
                raise self.unsupported("array initialisers '{...}'", node)
            stmts += self.copy(Var(cur.spelling, (), span), ty, self.struct_source(node), cur)
        return Block(tuple(stmts), span, scoped=False)

    def copy(self, target: Var, ty: Any, source: Source, cur: Any) -> list[Stmt]:
        """`target = source` for a struct type `ty`: one assignment per scalar cell."""
        span = self.span(cur)
        leaves = self.leaves(ty, cur, ty.spelling)
        if sum(len(list(leaf.cells())) for leaf in leaves) > MAX_COPY_CELLS:
            raise self.unsupported(f"copying a struct of more than {MAX_COPY_CELLS} scalars", cur)
        before: list[Stmt] = []
        target = self.hoisted(target, before, span)
        cells = [
            (
                leaf,
                Var(target.name + leaf.suffix, (*target.indices, *_lits(c, span)), target.span or span),
                source(leaf, c),
            )
            for leaf in leaves
            for c in leaf.cells()
        ]
        # C reads the whole source before it writes: when the source reads the target's
        # variables (`a[i] = a[j]`), every cell goes through a temporary first
        if len(cells) > 1 and any(_reads(value, target.name) for _, _, value in cells):
            staged: list[tuple[Leaf, Var, Term]] = []
            for leaf, lhs, value in cells:
                name = self.fresh_temp("copy")
                btype = self.base_type(leaf.type, cur, leaf.type.spelling)
                before.append(Decl(False, btype, (Declarator(name, (), value, span),), span))
                staged.append((leaf, lhs, Var(name, (), span)))
            cells = staged
        return [*before, *(AssignStmt(lhs, AssignOp.SET, value, span) for _, lhs, value in cells)]

    def hoisted(self, target: Var, before: list[Stmt], span: Span) -> Var:
        """C computes an lvalue's address once: indices that read variables go to temporaries
        (the copy writes several cells, and a later one must not see an earlier one)."""
        indices: list[Term] = []
        for index in target.indices:
            if not any(isinstance(t, Var) for t in subterms(index)):
                indices.append(index)
                continue
            name = self.fresh_temp("index")
            before.append(Decl(False, BaseType.INT, (Declarator(name, (), index, span),), span))
            indices.append(Var(name, (), span))
        return Var(target.name, tuple(indices), target.span)

    def fresh_temp(self, base: str) -> str:
        """A local no C name can be: `struct` is a keyword, and the dots keep it apart."""
        self.fresh_count += 1
        return f"struct.{base}.{self.fresh_count}"

    def assign_struct(self, target_cur: Any, value_cur: Any, cur: Any) -> Block:
        target = self.lvalue(target_cur)
        source = self.struct_source(value_cur)
        return Block(tuple(self.copy(target, target_cur.type, source, cur)), self.span(cur), scoped=False)


def _reads(t: Term, root: str) -> bool:
    return any(isinstance(s, Var) and (s.name == root or s.name.startswith(root + ".")) for s in subterms(t))


def _scalar(ty: Any) -> bool:
    kind = ty.get_canonical().kind.name
    return kind in SIGNED or kind in UNSIGNED or kind in ("BOOL", "FLOAT", "DOUBLE")
