"""Which memory each pointer variable of a function may point into (issue 9, item 6).

A flow-insensitive, inclusion-based pass over one function's Clang AST, run before the
function is translated (`pointers.py`). A *target* is one object a pointer can point
into: an array (a parameter, a `__shared__`, local or file-scope array, a row `t[2]` of a
multi-dimensional one, a field `a.f` of an array of structs), or a single scalar (`&x`,
`&s.f`). Every pointer variable gets the set of targets that any value assigned to it
(initialiser, `=`; `p++`/`p += k` keep the target) may point into, iterated to a fixpoint
through copies `p = q`, `c ? a : b` and the results of device functions.

Why the result is only a *completeness* matter and never a soundness one: the translation
does not trust it. It computes the target of every value it stores into a pointer
variable itself, and a target missing from the variable's set is an error there, not a
guess. The set only fixes which targets the variable's selector may name.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from . import clang
from .ckinds import ASSIGN, strip

ADDRESS_OF, DEREF = 5, 6
ADD, SUB = 6, 7


@dataclass(frozen=True)
class Target:
    """One object pointers may point into: the declaration (`decl_id`), the struct field path
    (`.f.g`, flattened as in aggregates.py), constant leading indices (a row `t[2]` of `t[4][8]`),
    and whether it is one scalar object (`&x`: no arithmetic, only `*p`/`p[0]`/`p->f`)."""

    decl: str
    suffix: str
    lead: tuple[int, ...]
    scalar: bool
    label: str = field(compare=False)  # as the user would write it, for messages
    cursor: Any = field(compare=False, default=None)  # the declaration


def decl_id(cur: Any) -> str:
    """A declaration's identity (libclang's cursor hash: the same for the declaration and
    every reference's `referenced`; one call, unlike its location)."""
    return str(cur.hash)


def pointer_type(ty: Any) -> bool:
    return bool(ty.get_canonical().kind.name == "POINTER")


def is_pointer_decl(cur: Any) -> bool:
    """A pointer variable or parameter (libclang keeps a parameter `int a[]` an array type)."""
    kind = cur.kind.name
    return pointer_type(cur.type) or (kind == "PARM_DECL" and array_like(cur.type))


def pointee(cur: Any) -> Any:
    ty = cur.type.get_canonical()
    return (ty.get_pointee() if ty.kind.name == "POINTER" else ty.element_type).get_canonical()


def same_cells(a: Any, b: Any) -> bool:
    """Element types a pointer cast may convert between: the same type up to qualifiers. (Not
    `int *` and `unsigned *`: values are mathematical integers, and a cell written as an
    `unsigned` above 2^31 - 1 would be read through the `int *` as that number, not C's
    negative one.)"""
    a, b = a.get_canonical(), b.get_canonical()
    if a.kind != b.kind:
        return False
    if a.kind.name == "RECORD":
        return bool(a.get_declaration() == b.get_declaration())
    return a.kind.name not in ("POINTER", "CONSTANTARRAY")


def array_like(ty: Any) -> bool:
    return ty.get_canonical().kind.name in ("POINTER", "CONSTANTARRAY", "INCOMPLETEARRAY", "VARIABLEARRAY")


def expr_children(cur: Any) -> list[Any]:
    return [ch for ch in clang.children(cur) if ch.kind.is_expression()]


def strip_ptr(cur: Any, K: Any) -> Any:
    """Parentheses, implicit conversions and explicit casts between pointer types (which the
    translation checks: only element types of one size)."""
    while True:
        cur = strip(cur, K)
        if cur.kind in (K.CSTYLE_CAST_EXPR, K.CXX_STATIC_CAST_EXPR, K.CXX_REINTERPRET_CAST_EXPR) and (
            pointer_type(cur.type)
        ):
            inner = expr_children(cur)
            if len(inner) != 1 or not array_like(inner[0].type):
                return cur
            elem = inner[0].type.get_canonical()
            elem = elem.get_pointee() if elem.kind.name == "POINTER" else elem.element_type
            if not same_cells(cur.type.get_canonical().get_pointee(), elem):
                return cur
            cur = inner[0]
            continue
        return cur


@dataclass(frozen=True)
class Place:
    """An lvalue or array-valued expression taken apart: `base` is the pointer expression it
    is reached through (`p` in `p[i].f`, `p->f`, `*p`) or None, `decl` the declaration when it
    is a variable's own (`a[i]`, `s.f`, `t[2]`), the field path, and the index expressions in
    the flattened order (`a[i].v[j]` is `a.v[i][j]`). `first` is the index applied to `base`."""

    base: Any | None
    decl: Any | None
    suffix: str
    indices: tuple[Any, ...]  # cursors; for a pointer base, the first one is its index (None: 0)


def place(cur: Any, K: Any) -> Place | None:
    """`cur` (an lvalue or an array-valued expression) as a Place; None if it is neither."""
    suffix = ""
    indices: list[Any] = []
    cur = strip(cur, K)
    while True:
        if cur.kind == K.MEMBER_REF_EXPR:
            children = expr_children(cur)
            if len(children) != 1:
                return None
            suffix = f".{cur.spelling}{suffix}"
            if pointer_type(strip(children[0], K).type) or _pointer_ref(strip(children[0], K), K):  # p->f
                return Place(strip(children[0], K), None, suffix, (None, *indices))
            cur = strip(children[0], K)
        elif cur.kind == K.ARRAY_SUBSCRIPT_EXPR:
            base, index = clang.children(cur)
            # the base's own type: an array decays to a pointer by an implicit conversion
            if pointer_type(strip(base, K).type) or _pointer_ref(strip(base, K), K):
                return Place(strip_ptr(base, K), None, suffix, (index, *indices))
            indices.insert(0, index)
            cur = strip(base, K)
        elif cur.kind == K.UNARY_OPERATOR and clang.unary_operator(cur) == DEREF:
            (inner,) = expr_children(cur)
            return Place(strip_ptr(inner, K), None, suffix, (None, *indices))
        elif cur.kind == K.DECL_REF_EXPR and cur.referenced is not None:
            ref = cur.referenced
            if is_pointer_decl(ref):  # `p` itself, as an lvalue: not a place of memory
                return None
            return Place(None, ref, suffix, tuple(indices))
        else:
            return None


def _pointer_ref(cur: Any, K: Any) -> bool:
    return cur.kind == K.DECL_REF_EXPR and cur.referenced is not None and is_pointer_decl(cur.referenced)


@dataclass
class Analysis:
    """The targets of a function's pointer variables (by declaration id) and which of its
    pointer parameters it assigns."""

    pts: dict[str, frozenset[Target]]
    assigned: set[str]
    decls: dict[str, Any]  # pointer variables: id -> declaration


def analyse(
    K: Any,
    function: Any,
    params: dict[str, frozenset[Target]],
    returned: Callable[[Any, list[frozenset[Target]]], frozenset[Target]],
) -> Analysis:
    """The pointer variables of `function` (its locals and parameters of pointer type) and
    their targets; `params` seeds the parameters (a kernel's: themselves; an inlined
    function's: what the call passes); `returned(call, argument targets)` is what a called
    device function returns."""
    decls: dict[str, Any] = {}
    sources: dict[str, list[Any]] = {}
    assigned: set[str] = set()
    for p in function.get_arguments():
        if is_pointer_decl(p):
            decls[decl_id(p)] = p
    body = next((ch for ch in function.get_children() if ch.kind == K.COMPOUND_STMT), None)
    nodes = clang.descendants(body) if body is not None else []
    for cur in nodes:
        if cur.kind == K.VAR_DECL and pointer_type(cur.type):
            decls[decl_id(cur)] = cur
            init = expr_children(cur)
            if init:
                sources.setdefault(decl_id(cur), []).append(init[-1])
    for cur in nodes:
        target = None
        if cur.kind == K.BINARY_OPERATOR and clang.binary_operator(cur) == ASSIGN:
            target, value = clang.children(cur)
            target = strip(target, K)
        elif cur.kind == K.COMPOUND_ASSIGNMENT_OPERATOR or (
            cur.kind == K.UNARY_OPERATOR and clang.unary_operator(cur) in (1, 2, 3, 4)
        ):
            target, value = strip(clang.children(cur)[0], K), None
        if target is None or target.kind != K.DECL_REF_EXPR or target.referenced is None:
            continue
        key = decl_id(target.referenced)
        if key in decls:
            assigned.add(key)
            if value is not None:
                sources.setdefault(key, []).append(value)
    pts: dict[str, frozenset[Target]] = {k: params.get(k, frozenset()) for k in decls}

    def targets(cur: Any) -> frozenset[Target]:
        cur = strip_ptr(cur, K)
        if cur.kind == K.DECL_REF_EXPR and cur.referenced is not None and decl_id(cur.referenced) in pts:
            return pts[decl_id(cur.referenced)]
        if cur.kind == K.BINARY_OPERATOR and clang.binary_operator(cur) in (ADD, SUB):
            return frozenset().union(*(targets(ch) for ch in cur.get_children() if array_like(ch.type)))
        if cur.kind == K.CONDITIONAL_OPERATOR:
            _, a, b = cur.get_children()
            return targets(a) | targets(b)
        if cur.kind == K.UNARY_OPERATOR and clang.unary_operator(cur) == ADDRESS_OF:
            return of_place(place(expr_children(cur)[0], K), address=True)
        if cur.kind == K.CALL_EXPR:
            return returned(cur, [targets(a) for a in cur.get_arguments()])
        return of_place(place(cur, K), address=False)

    def of_place(pl: Place | None, address: bool) -> frozenset[Target]:
        if pl is None:
            return frozenset()
        if pl.base is not None:
            return frozenset(
                Target(t.decl, t.suffix + pl.suffix, t.lead, t.scalar, t.label + pl.suffix, t.cursor)
                for t in targets(pl.base)
            )
        ref = pl.decl
        if ref is None:
            return frozenset()
        whole = array_like(ref.type) or ref.type.get_canonical().kind.name == "RECORD"
        element = address and bool(pl.indices)
        lead_cursors = pl.indices[:-1] if element else pl.indices
        lead = tuple(clang.constant_value(i) for i in lead_cursors)
        if any(v is None for v in lead):
            return frozenset()  # a variable row: the translation says so
        scalar = address and not pl.indices and not array_like(ref.type)
        if not whole and not address:
            return frozenset()
        name = ref.spelling + pl.suffix
        return frozenset(
            {Target(decl_id(ref), pl.suffix, tuple(v for v in lead if v is not None), scalar, name, ref)}
        )

    changed = True
    while changed:
        changed = False
        for key, values in sources.items():
            new = pts[key].union(*(targets(v) for v in values))
            if new != pts[key]:
                pts[key] = new
                changed = True
    return Analysis(pts, assigned, decls)
