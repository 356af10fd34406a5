"""IEEE semantics of the float operators (`hoaregpu.floats`) for the interpreters.

Values of float variables are Python floats (doubles); a value that is still an int (an
input, a cell never written) is read as that number. `float` results are rounded to
single precision by the `F32` the front end puts around them (rounding a double result of
`+ - * /` on floats to float gives the float result: a double has more than 2 * 24 + 2 bits).
Division by zero gives an infinity or NaN, as on the GPU; converting a NaN or an infinity
to an integer is undefined in C and a run-time error here.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from ..errors import Span
from ..floats import from_bits, round32
from ..terms import BinOp, UnOp

Num = Any  # int or float


def as_float(v: Num) -> float:
    if isinstance(v, float):
        return v
    try:
        return float(v)
    except OverflowError:  # an int beyond the doubles: the nearest is an infinity
        return math.copysign(math.inf, v)


def _div(a: Num, b: Num) -> float:
    x, y = as_float(a), as_float(b)
    if y == 0.0:
        if x == 0.0 or math.isnan(x):
            return math.nan
        return math.copysign(math.inf, x) * math.copysign(1.0, y)
    return x / y


def _mul(a: Num, b: Num) -> float:
    x, y = as_float(a), as_float(b)
    return x * y


BINARY: dict[BinOp, Callable[[Num, Num], Num]] = {
    BinOp.FADD: lambda a, b: as_float(a) + as_float(b),
    BinOp.FSUB: lambda a, b: as_float(a) - as_float(b),
    BinOp.FMUL: _mul,
    BinOp.FDIV: _div,
    BinOp.FLT: lambda a, b: 1 if as_float(a) < as_float(b) else 0,
    BinOp.FLE: lambda a, b: 1 if as_float(a) <= as_float(b) else 0,
    BinOp.FEQ: lambda a, b: 1 if as_float(a) == as_float(b) else 0,
    BinOp.FNE: lambda a, b: 1 if as_float(a) != as_float(b) else 0,
}


def unary(op: UnOp, v: Num, span: Span | None) -> Num:
    """`op v` for the float unary operators (the caller turns an EvalError into a violation)."""
    if op is UnOp.FLIT:
        return from_bits(int(v))
    if op is UnOp.FNEG:
        return -as_float(v)
    if op is UnOp.I2F:
        return as_float(v)
    if op is UnOp.F32:
        return round32(as_float(v))
    if op is UnOp.F2I:
        x = as_float(v)
        if math.isnan(x) or math.isinf(x):
            from .evaluate import EvalError

            raise EvalError(f"conversion of {x} to an integer (undefined in C)", span)
        return int(x)  # truncates toward zero, as C
    raise AssertionError(f"not a float operator: {op}")


def identical(a: Num, b: Num) -> bool:
    """Annotation `==` on values of which one is a float: the same value (NaN equals itself;
    0.0 and -0.0 differ), as the prover's equality of codes."""
    x, y = as_float(a), as_float(b)
    if math.isnan(x) or math.isnan(y):
        return math.isnan(x) and math.isnan(y)
    return x == y and math.copysign(1.0, x) == math.copysign(1.0, y)
