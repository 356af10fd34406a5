"""GPUVerify's access intrinsics as our access facts (hoaregpu.access_facts, docs/races.md):
`__write(p)` is `\\written(p)`, `__no_write(p)` is `!\\written(p)`, `__write_implies(p, e)` is
`\\forall int k; \\written(p, k) ==> e` with `__write_offset_bytes(p)` read as `k * sizeof(*p)`
(the byte offset of the recorded access); the `__read*` ones likewise with `\\read`.

Both tools log one access per array and thread (pick-one) and forget it at a barrier, so the
meaning is GPUVerify's (differences: docs/gpuverify-dialect.md). What is not translated stays
`Untranslatable` (dropped from a hypothesis, an input error in an obligation): the facts in a
`__requires` or `__assume` (ours are proved, never assumed), a pointer that is not an array
parameter or an array, an array of several dimensions or of structs (its byte offset is not
one cell), an offset outside the `__*_implies` of its array.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..terms import Access, AccessKind, Binary, BinOp, IntLit, Quant, QuantKind, Term, Unary, UnOp, Var
from .ckinds import strip
from .gpuverify_terms import fresh_name, rename, with_c_checks

if TYPE_CHECKING:
    from .gpuverify_formulas import DialectFormulas, FormulaState

FACTS = {"__read", "__write", "__no_read", "__no_write", "__read_implies", "__write_implies"}
OFFSETS = {"__read_offset_bytes", "__write_offset_bytes"}
HINT = (
    "hoaregpu reads GPUVerify's access facts as '\\written'/'\\read' (docs/races.md) in loop "
    "invariants, assertions and a kernel's __ensures, of an array parameter or an array of one "
    "dimension, with __read/__write_offset_bytes(p) inside __read/__write_implies(p, e) only"
)


def access_term(tr: DialectFormulas, name: str, cur: Any, state: FormulaState) -> Term:
    """The access fact of the intrinsic call `cur` (raises `Untranslatable`)."""
    from .gpuverify_formulas import Untranslatable

    def untranslatable(what: str) -> Untranslatable:
        return Untranslatable(tr.unsupported(what, cur, HINT))

    if state.position.hypothesis_only:
        raise untranslatable(f"'{name}' in a hypothesis")
    span = tr.span(cur)
    args = list(cur.get_arguments())
    kind = AccessKind.READ if name.startswith("__read") or name == "__no_read" else AccessKind.WRITTEN
    array, size = _array(tr, args[0])
    if array is None:
        raise untranslatable(f"'{name}' of this pointer")
    if name in OFFSETS:
        bound = state.offsets.get((kind, array))
        if bound is None:
            raise untranslatable(f"'{name}' outside '{name.split('_offset')[0]}_implies' of its array")
        return Binary(BinOp.MUL, Var(bound, (), span), IntLit(size, span), span)
    if name in ("__read", "__write", "__no_read", "__no_write"):
        fact: Term = Access(kind, Var(array, (), span), True, span)
        return Unary(UnOp.NOT, fact, span) if name.startswith("__no") else fact
    if (kind, array) in state.offsets:
        raise untranslatable(f"'{name}' inside '{name}' of the same array")
    placeholder = f"'cell{len(state.offsets)}"  # no C name is this (renamed below)
    state.offsets[(kind, array)] = placeholder
    try:
        body = with_c_checks(tr.expr(args[1]), False)  # proved where it stands (a bound variable)
    finally:
        del state.offsets[(kind, array)]
    cell = Access(kind, Var(array, (Var(placeholder, (), span),), span), False, span)
    implied = Binary(BinOp.IMPLIES, cell, body, span)
    fresh = fresh_name("__cell", implied)
    return Quant(QuantKind.FORALL, (fresh,), rename(implied, placeholder, fresh), span)


def _array(tr: DialectFormulas, arg: Any) -> tuple[str | None, int]:
    """The array `arg` names and its element size in bytes (None: not one we can name)."""
    K = tr.K
    cur = strip(arg, K)
    while cur.kind in (K.UNEXPOSED_EXPR, K.CSTYLE_CAST_EXPR) and len(list(cur.get_children())) == 1:
        cur = strip(next(iter(cur.get_children())), K)  # the casts to `const volatile void *`
    if cur.kind != K.DECL_REF_EXPR or cur.referenced is None:
        return None, 0
    ty = cur.type.get_canonical()
    if ty.kind.name == "POINTER":
        if cur.referenced.kind != K.PARM_DECL:
            return None, 0  # a pointer variable: GPUVerify's offset is from its object's start
        element = ty.get_pointee().get_canonical()
    elif ty.kind.name in ("CONSTANTARRAY", "INCOMPLETEARRAY"):
        element = ty.element_type.get_canonical()
    else:
        return None, 0
    if element.kind.name in ("CONSTANTARRAY", "INCOMPLETEARRAY", "RECORD", "VOID"):
        return None, 0
    term = tr.expr(cur)
    size = element.get_size()
    if not isinstance(term, Var) or term.indices or size <= 0:
        return None, 0
    return term.name, int(size)
