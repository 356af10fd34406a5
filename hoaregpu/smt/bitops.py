"""Bitwise operators and shifts on mathematical integers (two's complement of unbounded width).

C's `& | ^` on values in range agree with these operators on the infinite two's complement
expansion (Python's `&`), and results of unsigned operands agree modulo 2^w, as `+` does
(`~x` is `x ^ -1`, or `x ^ (2^w - 1)` for an unsigned x: the front end says so). Exact,
linear encodings where one operand is a constant c (what kernels write: `tid & 31`,
`x & 1`, `x | 4`, `i ^ 1`):

- c >= 0: `x & c` is the sum, over each run of one bits [lo, hi) of c, of
  `((x div 2^lo) mod 2^(hi-lo)) * 2^lo` (SMT-LIB's div/mod by a positive constant floor);
  so `x & (2^k - 1)` is `x mod 2^k` and `x & 1` is `x mod 2`, for every x.
- c < 0: `x & c = x - (x & ~c)`, with `~c = -c - 1 >= 0` (the bits of x split between c and ~c).
- `x | c = x + c - (x & c)`, `x ^ c = x + c - 2 (x & c)` (true for all integers).

Conditions (0 or 1): `&`, `|`, `^` are `and`, `or`, `xor`. The same operand twice:
`x & x = x | x = x`, `x ^ x = 0`. The power-of-two test `x & (x - 1)` is exact for
0 <= x < 2^64 (0 exactly at 0 and the powers of two, else between 1 and x - 1).
Otherwise `x & y` is `hg!band(x, y)` clamped into the range its true value lies in, and
`|`, `^` are built from it by the identities above (`hoaregpu.smt.approx`).

Shifts: by a constant k, `x * 2^k` / `x div 2^k` (an arithmetic `>>` floors); by a variable
amount, the same for each k in 0..63 (an `ite` over k), and an uninterpreted value outside
(a shift by a negative amount or by the width or more is undefined in C).
"""

from __future__ import annotations

from pysmt.fnode import FNode
from pysmt.formula import FormulaManager
from pysmt.typing import BOOL, INT

from ..terms import Binary, BinOp, Conditional, IntLit, Term, Unary, UnOp
from . import approx

MAX_SHIFT = 63  # shifts by 0..MAX_SHIFT are exact; C's integer types have at most 64 bits
POW2_TEST_BITS = 64  # `x & (x - 1)` is exact for 0 <= x < 2^POW2_TEST_BITS


def fold(t: Term) -> int | None:
    """The value of a term built from integer literals by arithmetic and bit operators, else None
    (C's `/` and `%`; a division by zero or a negative shift is no constant)."""
    if isinstance(t, IntLit):
        return t.value
    if isinstance(t, Unary) and t.op is UnOp.NEG:
        v = fold(t.operand)
        return None if v is None else -v
    if isinstance(t, Conditional):
        c = fold(t.cond)
        return None if c is None else fold(t.then if c else t.orelse)
    if not isinstance(t, Binary):
        return None
    a, b = fold(t.left), fold(t.right)
    if a is None or b is None:
        return None
    op = t.op
    if op is BinOp.ADD:
        return a + b
    if op is BinOp.SUB:
        return a - b
    if op is BinOp.MUL:
        return a * b
    if op in (BinOp.DIV, BinOp.MOD) and b != 0:
        q = abs(a) // abs(b) * (1 if (a < 0) == (b < 0) else -1)
        return q if op is BinOp.DIV else a - b * q
    if op in (BinOp.SHL, BinOp.SHR) and 0 <= b <= MAX_SHIFT:
        return a << b if op is BinOp.SHL else a >> b
    if op is BinOp.BAND:
        return a & b
    if op is BinOp.BOR:
        return a | b
    if op is BinOp.BXOR:
        return a ^ b
    return None


def _runs(c: int) -> list[tuple[int, int]]:
    """The runs [lo, hi) of one bits of c >= 0."""
    out, pos = [], 0
    while c:
        while not c & 1:
            c >>= 1
            pos += 1
        lo = pos
        while c & 1:
            c >>= 1
            pos += 1
        out.append((lo, pos))
    return out


def and_const(mgr: FormulaManager, x: FNode, c: int) -> FNode:
    """`x & c` for a constant c, exact and linear."""
    if c < 0:
        return mgr.Minus(x, and_const(mgr, x, -c - 1))
    if c == 0:
        return mgr.Int(0)
    parts = []
    for lo, hi in _runs(c):
        shifted = mgr.Div(x, mgr.Int(2**lo)) if lo else x
        bits = _mod(mgr, shifted, 2 ** (hi - lo))
        parts.append(mgr.Times(bits, mgr.Int(2**lo)) if lo else bits)
    return parts[0] if len(parts) == 1 else mgr.Plus(parts)


def _combine(mgr: FormulaManager, op: BinOp, x: FNode, y: FNode, conj: FNode) -> FNode:
    """`x op y` from `x & y` (`conj`): `|` is x + y - (x & y), `^` is x + y - 2 (x & y)."""
    if op is BinOp.BAND:
        return conj
    if op is BinOp.BOR:
        return mgr.Minus(mgr.Plus(x, y), conj)
    return mgr.Minus(mgr.Plus(x, y), mgr.Times(mgr.Int(2), conj))


def _is_pow2_test(left: Term, right: Term) -> bool:
    """`x & (x - 1)` or `(x - 1) & x`."""

    def minus_one(t: Term, of: Term) -> bool:
        return isinstance(t, Binary) and t.op is BinOp.SUB and t.left == of and fold(t.right) == 1

    return minus_one(right, left) or minus_one(left, right)


def _and_vars(mgr: FormulaManager, x: FNode, y: FNode) -> FNode:
    """`x & y` of two unknowns: an uninterpreted value in the range the true one lies in.
    For x, y >= 0 it is in [0, min(x, y)]; for one of them >= 0, in [0, that one]; for both
    negative, in [-inf, min(x, y)] (the sign bit stays set, and no bit is added)."""
    if y.node_id() < x.node_id():  # `a & b` and `b & a` are one application
        x, y = y, x
    band = approx.function(mgr, "band", INT, [INT, INT])
    v = mgr.Function(band, [x, y])
    zero = mgr.Int(0)
    lesser = mgr.Ite(mgr.LE(x, y), x, y)
    return mgr.Ite(
        mgr.GE(x, zero),
        approx.clamp(mgr, v, zero, mgr.Ite(mgr.GE(y, zero), lesser, x)),
        mgr.Ite(
            mgr.GE(y, zero),
            approx.clamp(mgr, v, zero, y),
            approx.clamp(mgr, v, None, lesser),
        ),
    )


def _pow2_test(mgr: FormulaManager, x: FNode, xm1: FNode) -> FNode:
    """`x & (x - 1)`: 0 at 0 and at the powers of two; for other 0 < x < 2^64 it is x with
    its lowest one bit cleared, in [1, x - 1]; elsewhere the general approximation."""
    zero = mgr.Int(0)
    powers = [mgr.Equals(x, mgr.Int(2**k)) for k in range(POW2_TEST_BITS)]
    general = _and_vars(mgr, x, xm1)
    in_range = mgr.And(mgr.GT(x, zero), mgr.LT(x, mgr.Int(2**POW2_TEST_BITS)))
    cleared = approx.clamp(mgr, general, mgr.Int(1), mgr.Minus(x, mgr.Int(1)))
    return mgr.Ite(mgr.Or(mgr.Equals(x, zero), *powers), zero, mgr.Ite(in_range, cleared, general))


def bitwise(mgr: FormulaManager, t: Binary, a: FNode, b: FNode) -> FNode:
    """`t` (`&`, `|` or `^`) from its operands' encodings `a` and `b` (Bool for conditions)."""
    op = t.op
    if a.get_type() is BOOL and b.get_type() is BOOL:
        if op is BinOp.BAND:
            return mgr.And(a, b)
        return mgr.Or(a, b) if op is BinOp.BOR else mgr.Xor(a, b)
    x, y = _as_int(mgr, a), _as_int(mgr, b)
    ca, cb = fold(t.left), fold(t.right)
    both = fold(t)
    if both is not None:
        return mgr.Int(both)
    if ca is not None or cb is not None:
        var, c = (y, ca) if ca is not None else (x, cb)
        assert c is not None
        return _combine(mgr, op, var, mgr.Int(c), and_const(mgr, var, c))
    if t.left == t.right:
        return mgr.Int(0) if op is BinOp.BXOR else x
    if op is BinOp.BAND and _is_pow2_test(t.left, t.right):
        left_is_x = isinstance(t.right, Binary) and t.right.left == t.left
        return _pow2_test(mgr, x, y) if left_is_x else _pow2_test(mgr, y, x)
    return _combine(mgr, op, x, y, _and_vars(mgr, x, y))


def shift(mgr: FormulaManager, t: Binary, x: FNode, k: FNode) -> FNode:
    """`x << k` / `x >> k` (`k` the amount's encoding)."""
    left = t.op is BinOp.SHL
    amount = fold(t.right)
    if amount is not None and 0 <= amount <= MAX_SHIFT:
        factor = mgr.Int(2**amount)
        # `>>` of a negative value is an arithmetic shift: floor division, as SMT's div.
        return mgr.Times(x, factor) if left else mgr.Div(x, factor)
    outside = mgr.Function(approx.function(mgr, "shl" if left else "shr", INT, [INT, INT]), [x, k])
    if amount is not None:
        return outside  # a negative or huge constant amount: undefined in C
    c = fold(t.left)
    out = outside
    for n in range(MAX_SHIFT, -1, -1):
        if c is not None:
            value = mgr.Int(c << n if left else c >> n)
        elif n == 0:
            value = x
        else:
            value = mgr.Times(x, mgr.Int(2**n)) if left else mgr.Div(x, mgr.Int(2**n))
        out = mgr.Ite(mgr.Equals(k, mgr.Int(n)), value, out)
    return out


def _mod(mgr: FormulaManager, x: FNode, p: int) -> FNode:
    """SMT-LIB's `mod` by a positive constant (pySMT has none): x - p * (x div p), in [0, p)."""
    return mgr.Minus(x, mgr.Times(mgr.Int(p), mgr.Div(x, mgr.Int(p))))


def _as_int(mgr: FormulaManager, v: FNode) -> FNode:
    return mgr.Ite(v, mgr.Int(1), mgr.Int(0)) if v.get_type() is BOOL else v
