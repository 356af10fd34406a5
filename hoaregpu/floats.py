"""`float` and `double` values as opaque values.

A float is stored like any value (an integer *code* in the SMT encoding), so copies are
exact: a kernel that only moves floats is proved like one that moves ints. What C computes
on floats — `+ - * /`, comparisons (NaN makes even `x == x` false), conversions between
int and float, the rounding of a double to a float — is an uninterpreted function for the
prover (`hoaregpu.smt.floats`), so a proof never depends on it, and a refutation that does
counts only when execution confirms it (`hoaregpu.smt.approx`). The interpreters compute
IEEE semantics (`hoaregpu.interp.floats`). A literal is the `FLIT` of its double's bits:
equal constants are one term.

In annotations float values may only be compared for identity (`==`, `!=`: the same value,
NaN included) or copied through `?:`; anything else would compare codes, which is not C's
order or arithmetic, so it is an error (`check_annotation`).
"""

from __future__ import annotations

import struct
from collections.abc import Callable

from .errors import Span, SpecError
from .term_walk import children
from .terms import Access, At, Binary, BinOp, Conditional, IntLit, Old, Term, Unary, UnOp, Var

FLOAT_BINOPS = frozenset(
    {BinOp.FADD, BinOp.FSUB, BinOp.FMUL, BinOp.FDIV, BinOp.FLT, BinOp.FLE, BinOp.FEQ, BinOp.FNE}
)
FLOAT_COMPARISONS = frozenset({BinOp.FLT, BinOp.FLE, BinOp.FEQ, BinOp.FNE})
FLOAT_UNOPS = frozenset({UnOp.FNEG, UnOp.I2F, UnOp.F2I, UnOp.F32, UnOp.FLIT})
FLOAT_RESULT_UNOPS = frozenset({UnOp.FNEG, UnOp.I2F, UnOp.F32, UnOp.FLIT})


def to_bits(value: float) -> int:
    """The IEEE double bits of `value` (a float constant's identity)."""
    return int(struct.unpack("<q", struct.pack("<d", value))[0])


def from_bits(bits: int) -> float:
    return float(struct.unpack("<d", struct.pack("<q", bits))[0])


def literal(value: float, span: Span | None = None) -> Term:
    return Unary(UnOp.FLIT, IntLit(to_bits(value), span), span)


def round32(value: float) -> float:
    """`value` rounded to the nearest float (overflow to infinity, as C's conversion)."""
    try:
        return float(struct.unpack("<f", struct.pack("<f", value))[0])
    except OverflowError:  # beyond FLT_MAX after rounding: an infinity of the same sign
        return value * float("inf") if value == value else value


def is_float_term(t: Term, is_float_var: Callable[[str], bool]) -> bool:
    """Whether `t` denotes a float value (an annotation term or a program expression)."""
    if isinstance(t, Var):
        return is_float_var(t.name)
    if isinstance(t, Unary):
        return t.op in FLOAT_RESULT_UNOPS
    if isinstance(t, Binary):
        return t.op in (BinOp.FADD, BinOp.FSUB, BinOp.FMUL, BinOp.FDIV)
    if isinstance(t, Conditional):
        return is_float_term(t.then, is_float_var) or is_float_term(t.orelse, is_float_var)
    if isinstance(t, Old | At):
        return is_float_term(t.term, is_float_var)
    return False


_IDENTITY_OK = (BinOp.EQ, BinOp.NE)


def check_annotation(t: Term, is_float_var: Callable[[str], bool], path: str) -> None:
    """Float values in an annotation may only be compared with `==`/`!=` (identity) or chosen
    by `?:`; arithmetic, `<`, or a float used as a condition would speak of codes."""

    def bad(x: Term, what: str) -> SpecError:
        return SpecError(
            f"{what} of a float value in an annotation",
            x.span or t.span or Span(path, 1, 1),
            hint="annotations compare float values only with '==' and '!=' (the same value, "
            "NaN included); float arithmetic and order are C's, which the prover leaves uninterpreted",
        )

    def go(x: Term) -> None:
        for sub in children(x):  # innermost first: `a + b == c` names the `+`
            go(sub)
        if isinstance(x, Binary):
            floats = [is_float_term(s, is_float_var) for s in (x.left, x.right)]
            if any(floats) and x.op not in _IDENTITY_OK:
                raise bad(x, f"operator '{x.op.value}'")
            if x.op in _IDENTITY_OK and floats[0] != floats[1]:
                raise bad(x, "comparison with an integer")
        elif isinstance(x, Unary):
            if x.op in (UnOp.NEG, UnOp.NOT) and is_float_term(x.operand, is_float_var):
                raise bad(x, f"operator '{x.op.value}'")
        elif isinstance(x, Conditional):
            if is_float_term(x.cond, is_float_var):
                raise bad(x.cond, "use as a condition")
        elif isinstance(x, Var):
            for i in x.indices:
                if is_float_term(i, is_float_var):
                    raise bad(i, "use as an index")
        elif not isinstance(x, Old | At | Access):  # an access fact names its cell, reads no value
            for sub in children(x):
                if is_float_term(sub, is_float_var):
                    raise bad(sub, "use as a formula")

    go(t)
    if is_float_term(t, is_float_var):
        raise bad(t, "use as a formula")
