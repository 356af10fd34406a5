"""Pointer variables into arrays (issue 9, item 6): `int *p = a + off; p[i]; *p; p++;
p += k; *(p + i); &a[i]; &a[i].f; &x; p - q; p < q`, and pointers passed to device functions.

A pointer variable `p` becomes integers: `p.off`, the element offset into its target,
and, when `p` may point into several objects, `p.sel`, which one. What `p` may point into
(its targets) comes from a flow-insensitive pass over the function
(`pointer_analysis.py`); the translation checks every value stored into `p` against it.
Each target's memory is named, once per function, by an alias declared right after the
target's declaration (`AliasDecl`, a name no C identifier can be), so shadowing cannot
make an access through `p` reach another variable. Then

    p[i]  is  a[p.off + i]                                    (one target a)
    p[i]  is  p.sel == 0 ? a[p.off + i] : b[p.off + i]        (targets a, b; reads)
    p[i] = e  is  t = e; if (p.sel == 0) a[p.off + i] = t; else b[p.off + i] = t;

and everything after the front end (lowering, VCs, interpreters, counterexamples) sees
ordinary array accesses. Why this is sound: a C pointer into an object is that object and
an offset, and the translation tracks both exactly (the offset as a mathematical integer;
the object by `p.sel`, set at every assignment from the target the value provably has).
Aliasing among pointers into one array is then array aliasing: two pointers into `a` are
two offsets into the one variable `a`, so a write through one is seen by a read through
the other. Distinct arrays are distinct memory: distinct pointer *parameters* are assumed
not to alias (as GPUVerify assumes; README). The write of a several-target pointer is an
`if` over the targets, which in the lockstep semantics runs the threads pointing into `a`,
then those pointing into `b`: different memory, and value and indices are computed once
before, so the order cannot matter. A pointer to one scalar (`&x`) admits no arithmetic,
so its offset is always 0. Not supported (each a clear error): null pointers, pointers to
pointers, arrays of pointers, casts other than between element types of one size,
pointers as integers, comparing pointers into different objects, compound assignments
through a pointer with several targets, device functions returning pointers (as values).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

from ..errors import Span, SpecError, UnsupportedError
from ..terms import Binary, BinOp, Conditional, IntLit, Term, Var
from . import clang
from .ckinds import BINARY, is_unsigned, strip
from .filescope import FileScope
from .pointer_analysis import (
    ADD,
    ADDRESS_OF,
    DEREF,
    SUB,
    Analysis,
    Place,
    Target,
    analyse,
    array_like,
    decl_id,
    expr_children,
    place,
    pointer_type,
    strip_ptr,
)

POINTER_HINT = (
    "pointer variables point into one array, or a few chosen by conditions ('int *p = a + k;',"
    " 'p = c ? a : b;', '&a[i]', '&x'); index them, dereference them, step them, compare or"
    " subtract pointers into one array"
)


@dataclass(frozen=True)
class PtrVar:
    """A pointer variable: its targets and the names of its offset and selector (None: a
    pointer parameter that is never assigned, i.e. the array itself, offset 0)."""

    name: str
    targets: tuple[Target, ...]
    off: str | None
    sel: str | None


@dataclass(frozen=True)
class PtrVal:
    """A pointer value: its possible targets, the name of each target's memory valid here,
    which one (None: the only one), and the element offset."""

    targets: tuple[Target, ...]
    names: tuple[str, ...]
    sel: Term | None
    off: Term


@dataclass
class Frame:
    analysis: Analysis
    vars: dict[str, PtrVar] = field(default_factory=dict)  # by declaration id
    aliases: dict[str, str] = field(default_factory=dict)  # declaration id -> its memory's name here
    by_name: dict[str, str | None] = field(default_factory=dict)  # C name -> declaration id (annotations)
    # C names of the pointer variables declared so far (with an offset): a cheap first test
    # before the accesses through them, which can only follow their declarations
    pointer_names: set[str] = field(default_factory=set)

    @cached_property
    def needed(self) -> set[str]:
        """Declarations some pointer variable may point into (they get an alias)."""
        a = self.analysis
        variables = [k for k, d in a.decls.items() if k in a.assigned or d.kind.name == "VAR_DECL"]
        return {t.decl for k in variables for t in a.pts[k]}


@dataclass
class Pointers(FileScope):
    ptr_frames: list[Frame] = field(default_factory=list)
    ptr_writing: bool = False

    # ------------------------------------------------------------ frames

    def push_pointer_frame(self, function: Any, seeds: dict[str, frozenset[Target]]) -> Frame:
        frame = Frame(analyse(self.K, function, seeds, lambda call, args: frozenset()))
        self.ptr_frames.append(frame)
        return frame

    @property
    def frame(self) -> Frame | None:
        return self.ptr_frames[-1] if self.ptr_frames else None

    # ------------------------------------------------------------ values

    def var_of(self, cur: Any) -> PtrVar | None:
        cur = strip(cur, self.K)
        frame = self.frame
        if frame is None or cur.kind != self.K.DECL_REF_EXPR or cur.referenced is None:
            return None
        return frame.vars.get(decl_id(cur.referenced))

    def at(self, where: Any) -> Span:
        return where if isinstance(where, Span) else self.span(where)

    def refuse(self, what: str, where: Any) -> UnsupportedError:
        return UnsupportedError(what, self.at(where), POINTER_HINT)

    def var_value(self, var: PtrVar, cur: Any) -> PtrVal:
        frame = self.frame
        assert frame is not None
        if var.off is None:  # a pointer parameter never assigned: the array itself
            return PtrVal(var.targets, (var.name,), None, IntLit(0))
        if not var.targets:
            raise self.refuse(f"pointer '{var.name}', which is never given a value", cur)
        names = []
        for t in var.targets:
            if t.decl not in frame.aliases:
                raise self.refuse(
                    f"pointer '{var.name}' used where '{t.label}', which it may point into, is not declared",
                    cur,
                )
            names.append(frame.aliases[t.decl])
        span = self.at(cur)
        sel = Var(var.sel, (), span) if var.sel is not None else None
        return PtrVal(var.targets, tuple(names), sel, Var(var.off, (), span))

    def pointer_value(self, cur: Any) -> PtrVal:
        """The value of a pointer-typed (or array-typed, decaying) expression."""
        K = self.K
        cur = self.checked_cast(strip_ptr(cur, K))
        span = self.span(cur)
        var = self.var_of(cur)
        if var is not None:
            return self.var_value(var, cur)
        if cur.kind == K.BINARY_OPERATOR and clang.binary_operator(cur) in (ADD, SUB):
            left, right = cur.get_children()
            ptr, num = (left, right) if array_like(left.type) else (right, left)
            value = self.pointer_value(ptr)
            delta = self.index_term(num)
            if clang.binary_operator(cur) == SUB:
                delta = Binary(BinOp.SUB, IntLit(0), delta, span)
            return replace(value, off=self.moved(value, delta, cur))
        if cur.kind == K.CONDITIONAL_OPERATOR:
            c, a, b = cur.get_children()
            cond = self.expr(c)
            va, vb = self.pointer_value(a), self.pointer_value(b)
            return self.merged_pointer(cond, va, vb, span)
        if cur.kind == K.UNARY_OPERATOR and clang.unary_operator(cur) == ADDRESS_OF:
            pl = place(expr_children(cur)[0], K)
            if pl is None:
                raise self.unsupported("address-of '&' of this expression", cur, POINTER_HINT)
            return self.place_pointer(pl, True, cur)
        if cur.kind in (K.INTEGER_LITERAL, K.CXX_NULL_PTR_LITERAL_EXPR, K.GNU_NULL_EXPR):
            raise self.unsupported("null pointers", cur, POINTER_HINT)
        if cur.kind == K.CALL_EXPR:
            raise self.unsupported(f"the pointer '{cur.spelling}' returns", cur, POINTER_HINT)
        pl = place(cur, K)
        if pl is None or not array_like(cur.type):
            raise self.unsupported("this pointer expression", cur, POINTER_HINT)
        return self.place_pointer(pl, False, cur)

    def checked_cast(self, cur: Any) -> Any:
        """A cast left by `strip_ptr` (one it does not look through) is an error here; one it
        looked through is checked: element types of one size (`int *` and `unsigned *`)."""
        K = self.K
        if cur.kind in (K.CSTYLE_CAST_EXPR, K.CXX_STATIC_CAST_EXPR, K.CXX_REINTERPRET_CAST_EXPR):
            inner = expr_children(cur)
            raise self.unsupported(
                f"cast from '{inner[-1].type.spelling if inner else '?'}' to '{cur.type.spelling}'",
                cur,
                POINTER_HINT,
            )
        return cur

    def moved(self, value: PtrVal, delta: Term, cur: Any) -> Term:
        if isinstance(delta, IntLit) and delta.value == 0:
            return value.off
        if any(t.scalar for t in value.targets):
            raise self.refuse("pointer arithmetic on a pointer to a single variable", cur)
        if any(field_of_element(t) for t in value.targets):
            raise self.refuse(FIELD_STEP, cur)
        return _plus(value.off, delta, self.at(cur))

    def merged_pointer(self, cond: Term, a: PtrVal, b: PtrVal, span: Span) -> PtrVal:
        targets = list(a.targets)
        names = list(a.names)
        for t, n in zip(b.targets, b.names, strict=True):
            if t not in targets:
                targets.append(t)
                names.append(n)
        if len(targets) == 1:
            return PtrVal(a.targets, a.names, None, Conditional(cond, a.off, b.off, span))

        def sel_of(v: PtrVal) -> Term:
            idx = [targets.index(t) for t in v.targets]
            if v.sel is None:
                return IntLit(idx[0])
            out: Term = IntLit(idx[-1])
            for j in range(len(idx) - 2, -1, -1):
                out = Conditional(Binary(BinOp.EQ, v.sel, IntLit(j)), IntLit(idx[j]), out)
            return out

        sel = Conditional(cond, sel_of(a), sel_of(b), span)
        return PtrVal(tuple(targets), tuple(names), sel, Conditional(cond, a.off, b.off, span))

    def index_term(self, cur: Any) -> Term:
        # C zero-extends an unsigned index: a wrapped one reaches far away
        term = self.expr(cur)
        return self.observed(term, cur) if is_unsigned(cur) else term

    def place_pointer(self, pl: Place, address: bool, cur: Any) -> PtrVal:
        """`&a[i]`, `&s.f`, `&p[i].f` (address) or an array decaying (`t[2]`, `s.arr`)."""
        span = self.span(cur)
        if pl.base is None:
            ref = pl.decl
            named = self.expr(self.decl_ref(cur, ref)) if ref is not None else None
            if not isinstance(named, Var) or ref is None:
                raise self.unsupported("address-of '&' of this expression", cur, POINTER_HINT)
            indices = [self.index_term(i) for i in pl.indices]
            if address and not indices and array_like(ref.type) and not pl.suffix:
                raise self.unsupported("address-of '&' of a whole array", cur, "write the array's name")
            root = Target(decl_id(ref), "", (), False, ref.spelling, ref)
            base = PtrVal((root,), (named.name,), None, IntLit(0))
            return self.derived(base, pl.suffix, indices, address, address and not indices, cur, span)
        value = self.pointer_value(pl.base)
        first = IntLit(0) if pl.indices[0] is None else self.index_term(pl.indices[0])
        rest = [self.index_term(i) for i in pl.indices[1:]]
        if any(t.scalar or field_of_element(t) for t in value.targets):
            if not (isinstance(first, IntLit) and first.value == 0):
                what = "indexing a pointer to a single variable"
                raise self.unsupported(what if value.targets[0].scalar else FIELD_STEP, cur, POINTER_HINT)
            if not address and not rest and not pl.suffix:
                return value
            return self.derived(value, pl.suffix, rest, address, address and not rest, cur, span)
        off = self.moved(value, first, cur)
        # `t[2]` of `int t[][4]` is a row, which decays to a pointer into it: a lead, not an offset
        row = not address and cur.type.get_canonical().kind.name in ("CONSTANTARRAY", "INCOMPLETEARRAY")
        if not rest and not pl.suffix and not row:
            return replace(value, off=off)
        return self.derived(replace(value, off=IntLit(0)), pl.suffix, [off, *rest], address, False, cur, span)

    def derived(
        self,
        value: PtrVal,
        suffix: str,
        indices: list[Term],
        address: bool,
        scalar: bool,
        cur: Any,
        span: Span,
    ) -> PtrVal:
        """A pointer into a field or row of `value`'s targets: the indices but the last (all,
        for an array decaying) are constant rows; the last is the new offset."""
        lead_terms, off = (indices[:-1], indices[-1]) if address and indices else (indices, IntLit(0))
        lead = []
        for t in lead_terms:
            if not isinstance(t, IntLit):
                raise self.unsupported("a pointer into a row chosen by a variable", cur, POINTER_HINT)
            lead.append(t.value)
        targets = tuple(
            Target(t.decl, t.suffix + suffix, (*t.lead, *lead), scalar, t.label + suffix, t.cursor)
            for t in value.targets
        )
        return PtrVal(targets, value.names, value.sel, off if address else IntLit(0, span))

    def decl_ref(self, cur: Any, ref: Any) -> Any:
        """The DECL_REF_EXPR inside `cur` that names `ref` (for its name as `expr` reads it)."""
        for node in cur.walk_preorder():
            if (
                node.kind == self.K.DECL_REF_EXPR
                and node.referenced is not None
                and decl_id(node.referenced) == decl_id(ref)
            ):
                return node
        return cur

    # ------------------------------------------------------------ accesses

    def access(self, value: PtrVal, suffix: str, first: Term, rest: list[Term], cur: Any) -> Term:
        """The memory `value[first]` (then `.suffix`, `[rest]`) as a term: one Var per target."""
        span = self.at(cur)
        options: list[Term] = []
        for t, name in zip(value.targets, value.names, strict=True):
            if t.scalar:
                if not (isinstance(first, IntLit) and first.value == 0):
                    raise self.refuse("indexing a pointer to a single variable", cur)
                indices: tuple[Term, ...] = (*(IntLit(v, span) for v in t.lead), *rest)
            else:
                if field_of_element(t) and not (isinstance(first, IntLit) and first.value == 0):
                    raise self.refuse(FIELD_STEP, cur)
                indices = (*(IntLit(v, span) for v in t.lead), _plus(value.off, first, span), *rest)
            if self.ptr_writing and self.is_constant(t.cursor):
                raise SpecError(f"'{t.label}' is a __constant__ variable: a kernel cannot write it", span)
            options.append(Var(name + t.suffix + suffix, indices, span))
        if not options:
            raise self.refuse("a pointer that points nowhere", cur)
        out = options[-1]
        for j in range(len(options) - 2, -1, -1):
            assert value.sel is not None
            out = Conditional(Binary(BinOp.EQ, value.sel, IntLit(j), span), options[j], out, span)
        return out

    def through(self, cur: Any) -> Place | None:
        """`cur` as an access through a pointer variable or pointer expression (not through a
        parameter that is the array itself, which `expr` reads as before)."""
        pl = place(cur, self.K)
        if pl is None or pl.base is None:
            return None
        var = self.var_of(pl.base)
        if var is not None and var.off is None and cur.kind != self.K.UNARY_OPERATOR:
            return None
        if var is None and pl.base.kind == self.K.DECL_REF_EXPR:
            return None  # not a pointer of this function (a file-scope one): `expr` says so
        return pl

    def pointer_expr(self, cur: Any) -> Term | None:
        K = self.K
        k = cur.kind
        frame = self.frame
        if k in (K.ARRAY_SUBSCRIPT_EXPR, K.MEMBER_REF_EXPR) or (
            k == K.UNARY_OPERATOR and clang.unary_operator(cur) == DEREF
        ):
            if k != K.UNARY_OPERATOR and frame is not None:
                # the common case first, cheaply: an array's or array parameter's own name
                base = strip(clang.children(cur)[0], K)
                names = frame.pointer_names
                if base.kind == K.DECL_REF_EXPR and (not names or base.spelling not in names):
                    return None
            if array_like(cur.type):
                return None  # a row, read by indexing it further
            pl = self.through(cur)
            if pl is None:
                return None
            value = self.pointer_value(pl.base)
            first = IntLit(0) if pl.indices[0] is None else self.index_term(pl.indices[0])
            rest = [self.index_term(i) for i in pl.indices[1:]]
            return self.access(value, pl.suffix, first, rest, cur)
        if k == K.DECL_REF_EXPR:
            if frame is None or not frame.pointer_names or cur.spelling not in frame.pointer_names:
                return None
            var = self.var_of(cur)
            if var is not None and var.off is not None:
                raise self.unsupported(f"the value of pointer '{var.name}'", cur, POINTER_HINT)
            return None
        if k == K.BINARY_OPERATOR and BINARY.get(clang.binary_operator(cur)) in _POINTER_OPS:
            left, right = clang.children(cur)
            if not (pointer_type(left.type) or pointer_type(right.type)):
                return None
            op = BINARY[clang.binary_operator(cur)]
            if not (array_like(left.type) and array_like(right.type)):
                raise self.unsupported(f"operator '{op.value}' on pointers", cur, POINTER_HINT)
            a, b = self.pointer_value(left), self.pointer_value(right)
            if len(a.targets) != 1 or a.targets != b.targets:
                raise self.unsupported(
                    "comparing pointers that may point into different objects", cur, POINTER_HINT
                )
            return Binary(op, a.off, b.off, self.span(cur))
        return None

    def lvalue(self, cur: Any) -> Var:
        self.ptr_writing = True
        try:
            return super().lvalue(cur)
        finally:
            self.ptr_writing = False


_POINTER_OPS = frozenset({BinOp.SUB, BinOp.LT, BinOp.LE, BinOp.GT, BinOp.GE, BinOp.EQ, BinOp.NE})


def _where(cur: Any) -> int:
    return int(cur.location.offset) if cur is not None else -1


def _plus(a: Term, b: Term, span: Span) -> Term:
    if isinstance(b, IntLit) and b.value == 0:
        return a
    if isinstance(a, IntLit) and a.value == 0:
        return b
    if isinstance(a, IntLit) and isinstance(b, IntLit):
        return IntLit(a.value + b.value, span)
    return Binary(BinOp.ADD, a, b, span)


FIELD_STEP = "stepping a pointer to a field of an array's struct element (C steps by the field's size)"


def field_of_element(t: Target) -> bool:
    """Whether `t` is a scalar field of the struct elements of an array (`&a[i].f`, `&p[i].f`):
    the model steps such a pointer over the elements (`a.f[i + 1]`), where C steps by the
    field's size into the next field. Only `*p`/`p[0]` agree, so only those are read."""
    if not t.suffix or t.cursor is None:
        return False
    ty, container_dims = t.cursor.type.get_canonical(), 0
    while ty.kind.name in ("POINTER", "CONSTANTARRAY", "INCOMPLETEARRAY"):
        ty = (ty.get_pointee() if ty.kind.name == "POINTER" else ty.element_type).get_canonical()
        container_dims += 1
    return len(t.lead) < container_dims
