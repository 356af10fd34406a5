"""Float operators as uninterpreted functions on the codes of float values (`hoaregpu.floats`).

`+ - * /`, negation and conversions are `hg!f...` functions to Int; `<`, `<=`, `==` are
Boolean ones, `a != b` is `!(a == b)` (C's `!=` is the negation of `==`, NaN included).
Equal operands give equal results (they are functions), which is all the prover knows.

A literal's code is its double's IEEE bits: coding every float value by its bits is one
way of giving values codes (an injective one, and inputs range over all codes), so
literals are exact: `0.0f == 0.0` and `1.5 != 2.5` are decided without approximation.
"""

from __future__ import annotations

from pysmt.fnode import FNode
from pysmt.formula import FormulaManager
from pysmt.typing import BOOL, INT

from ..terms import BinOp, UnOp
from . import approx

_DESCRIPTION = "floating-point operations"
_BINARY = {
    BinOp.FADD: "fadd",
    BinOp.FSUB: "fsub",
    BinOp.FMUL: "fmul",
    BinOp.FDIV: "fdiv",
    BinOp.FLT: "flt",
    BinOp.FLE: "fle",
    BinOp.FEQ: "feq",
}
_UNARY = {UnOp.FNEG: "fneg", UnOp.I2F: "i2f", UnOp.F2I: "f2i", UnOp.F32: "f32"}
for _name in (*_BINARY.values(), *_UNARY.values()):
    approx.register(_name, _DESCRIPTION)


def binary(mgr: FormulaManager, op: BinOp, a: FNode, b: FNode) -> FNode:
    if op is BinOp.FNE:
        return mgr.Not(binary(mgr, BinOp.FEQ, a, b))
    result = BOOL if op in (BinOp.FLT, BinOp.FLE, BinOp.FEQ) else INT
    return mgr.Function(approx.function(mgr, _BINARY[op], result, [INT, INT]), [a, b])


def unary(mgr: FormulaManager, op: UnOp, a: FNode) -> FNode:
    if op is UnOp.FLIT:  # `a` is the literal's bits
        return a
    return mgr.Function(approx.function(mgr, _UNARY[op], INT, [INT]), [a])
