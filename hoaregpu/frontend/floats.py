"""C's `float`/`double` expressions → the opaque float terms of `hoaregpu.floats`.

Clang has already made every conversion explicit (implicit casts), so each operator's
operands share one type: `+ - * /` on floats become `FADD`..., wrapped in `F32` when C
computes in `float`; comparisons become `FLT`/`FLE`/`FEQ`/`FNE` (`a > b` is `b < a`);
conversions int↔float are `I2F`/`F2I`, double→float is `F32`, float→double the identity
(exact), float→bool `x != 0.0`. Constants Clang can fold (`1.5f`, `(float)2`, `0`
converted) are literals, so equal constants are one term.
"""

from __future__ import annotations

import math
from typing import Any

from ..errors import UnsupportedError
from ..floats import literal, round32
from ..syntax import AssignOp
from ..terms import Binary, BinOp, IntLit, Term, Unary, UnOp
from . import clang
from .ckinds import canonical_kind

FLOAT_KINDS = ("FLOAT", "DOUBLE")
_ARITH = {BinOp.ADD: BinOp.FADD, BinOp.SUB: BinOp.FSUB, BinOp.MUL: BinOp.FMUL, BinOp.DIV: BinOp.FDIV}
_COMPOUND = {
    AssignOp.ADD: BinOp.FADD,
    AssignOp.SUB: BinOp.FSUB,
    AssignOp.MUL: BinOp.FMUL,
    AssignOp.DIV: BinOp.FDIV,
}
_CXEVAL_FLOAT = 2


def kind_of(ty: Any) -> str:
    return canonical_kind(ty)


def is_float(cur: Any) -> bool:
    return kind_of(cur.type) in FLOAT_KINDS


def constant(cur: Any) -> float | None:
    """The floating value Clang folds the expression to, or None."""
    lib = clang.cindex().conf.lib
    result = lib.clang_Cursor_Evaluate(cur)
    if not result:
        return None
    try:
        if lib.clang_EvalResult_getKind(result) != _CXEVAL_FLOAT:
            return None
        return float(lib.clang_EvalResult_getAsDouble(result))
    finally:
        lib.clang_EvalResult_dispose(result)


def _folded(t: Term) -> float | None:
    if isinstance(t, Unary) and t.op is UnOp.FLIT and isinstance(t.operand, IntLit):
        from ..floats import from_bits

        return from_bits(t.operand.value)
    return None


def convert(term: Term, source: str, target: str) -> Term:
    """`term` of C type kind `source` converted to kind `target` (one of them a float kind)."""
    span = term.span
    if source in FLOAT_KINDS and target in FLOAT_KINDS:
        if source == "DOUBLE" and target == "FLOAT":
            value = _folded(term)
            return literal(round32(value), span) if value is not None else Unary(UnOp.F32, term, span)
        return term  # float → double is exact
    if target in FLOAT_KINDS:  # an integer (or bool) becomes a float
        if isinstance(term, IntLit):
            try:
                value = float(term.value)
            except OverflowError:  # beyond the doubles: C's conversion gives an infinity
                value = math.copysign(math.inf, term.value)
            return literal(round32(value) if target == "FLOAT" else value, span)
        converted: Term = Unary(UnOp.I2F, term, span)
        return Unary(UnOp.F32, converted, span) if target == "FLOAT" else converted
    value = _folded(term)
    if target == "BOOL":  # C: x != 0.0 (NaN is true)
        if value is not None:
            return IntLit(0 if value == 0.0 else 1, span)
        return Binary(BinOp.FNE, term, literal(0.0, span), span)
    if value is not None and math.isfinite(value):
        return IntLit(int(value), span)  # truncates toward zero
    return Unary(UnOp.F2I, term, span)


def binary(op: BinOp, a: Term, b: Term, result_kind: str, cur: Any, span: Any) -> Term:
    """`a op b` with float operands (`result_kind` is C's type of the result)."""
    if op in _ARITH:
        out: Term = Binary(_ARITH[op], a, b, span)
        return Unary(UnOp.F32, out, span) if result_kind == "FLOAT" else out
    if op is BinOp.LT:
        return Binary(BinOp.FLT, a, b, span)
    if op is BinOp.GT:
        return Binary(BinOp.FLT, b, a, span)
    if op is BinOp.LE:
        return Binary(BinOp.FLE, a, b, span)
    if op is BinOp.GE:
        return Binary(BinOp.FLE, b, a, span)
    if op is BinOp.EQ:
        return Binary(BinOp.FEQ, a, b, span)
    if op is BinOp.NE:
        return Binary(BinOp.FNE, a, b, span)
    raise UnsupportedError(f"operator '{op.value}' on floating-point values", span)


def compound(op: AssignOp, lhs: Term, own: str, value: Term, other: str, span: Any) -> Term:
    """The value `x op= e` stores when x or e is a float (before the store's own checks)."""
    if op not in _COMPOUND:
        raise UnsupportedError(f"'{op.value}' on floating-point values", span)
    comp = "DOUBLE" if "DOUBLE" in (own, other) else "FLOAT"
    a = convert(lhs, own, comp) if own != comp else lhs
    b = convert(value, other, comp) if other != comp else value
    result: Term = Binary(_COMPOUND[op], a, b, span)
    if comp == "FLOAT":
        result = Unary(UnOp.F32, result, span)
    return convert(result, comp, own) if own != comp else result
