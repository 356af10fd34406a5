"""Program expressions over constants, evaluated as C does (used by `hoaregpu.unroll` to find
a loop's trip count).

The operators must mean what the VC encoder (`hoaregpu.smt.encode`) and the interpreter
(`hoaregpu.interp.evaluate`) make of them, since the unrolled program is verified with the
encoder's meaning: `/` truncates toward zero, `%` has the dividend's sign, `<<`/`>>` multiply
and floor-divide by a power of two (non-negative amounts only), comparisons and logical
operators give 0 or 1, `&&`/`||`/`?:` short-circuit. tests/test_unroll.py compares it with the
interpreter's operators.
"""

from __future__ import annotations

from collections.abc import Mapping

from .launch import Launch
from .terms import Binary, BinOp, BlockCount, Conditional, IntLit, Term, ThreadCount, Unary, UnOp, Var


def evaluate(t: Term, env: Mapping[str, int], launch: Launch) -> int | None:
    """The value of a program expression that reads only literals, the scalars of `env` and
    (when fixed) `blockDim` and `gridDim`, with C's operators as the VC encoder and the interpreter read them
    (`/` truncates, `%` has the dividend's sign, shifts by a non-negative amount); None when it
    reads anything else or divides by zero."""
    if isinstance(t, IntLit):
        return t.value
    if isinstance(t, Var):
        return env.get(t.name) if not t.indices else None
    if isinstance(t, ThreadCount):
        return launch.block[t.axis]
    if isinstance(t, BlockCount):
        return launch.grid[t.axis]
    if isinstance(t, Unary):
        x = evaluate(t.operand, env, launch)
        if x is None:
            return None
        return -x if t.op is UnOp.NEG else int(x == 0)
    if isinstance(t, Conditional):
        c = evaluate(t.cond, env, launch)
        if c is None:
            return None
        return evaluate(t.then if c != 0 else t.orelse, env, launch)
    if isinstance(t, Binary):
        a = evaluate(t.left, env, launch)
        if a is None:
            return None
        if t.op is BinOp.AND and a == 0:
            return 0
        if t.op is BinOp.OR and a != 0:
            return 1
        b = evaluate(t.right, env, launch)
        return None if b is None else _binary(t.op, a, b)
    return None


def _binary(op: BinOp, a: int, b: int) -> int | None:
    if op in (BinOp.DIV, BinOp.MOD):
        if b == 0:
            return None
        q = abs(a) // abs(b)
        q = -q if (a < 0) != (b < 0) else q
        return q if op is BinOp.DIV else a - b * q
    if op in (BinOp.SHL, BinOp.SHR):
        if b < 0:
            return None
        return a * (1 << b) if op is BinOp.SHL else a >> b  # >>: floor division by 2^b
    simple = {
        BinOp.ADD: lambda: a + b,
        BinOp.SUB: lambda: a - b,
        BinOp.MUL: lambda: a * b,
        BinOp.LT: lambda: int(a < b),
        BinOp.LE: lambda: int(a <= b),
        BinOp.GT: lambda: int(a > b),
        BinOp.GE: lambda: int(a >= b),
        BinOp.EQ: lambda: int(a == b),
        BinOp.NE: lambda: int(a != b),
        BinOp.AND: lambda: int(b != 0),
        BinOp.OR: lambda: int(b != 0),
    }
    f = simple.get(op)
    return f() if f is not None else None
