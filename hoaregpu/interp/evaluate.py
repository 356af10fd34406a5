"""Program expressions, evaluated for many threads at once (paper §2.2, σ⟦e⟧).

`compile_expr` turns an expression into a closure `f(ctx, ts) -> values`, where `ts`
is the list of active threads and `values[k]` is the value at thread `ts[k]`. Working
on whole columns of threads keeps the per-thread cost to a few list operations, which
is what makes the lockstep interpreter fast without NumPy (and keeps integers
unbounded, as in the paper).

C semantics: `/` truncates toward zero, `%` takes the sign of the dividend, `<<`/`>>`
are multiplication/floor-division by powers of two and need amounts in 0..63;
`& | ^` are Python's (two's complement, unbounded);
`&&`, `||` and `?:` short-circuit (per thread), so a guarded read is not a read.
Conditions are ints; comparisons and logical operators give 0 or 1.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..core import Kernel, VarKind
from ..errors import HoareGpuError, Span
from ..floats import FLOAT_UNOPS
from ..launch import THREAD_X, Coord
from ..terms import (
    Aggregate,
    At,
    Binary,
    BinOp,
    BlockCount,
    BlockId,
    Conditional,
    IntLit,
    Old,
    Quant,
    Term,
    ThreadCount,
    ThreadId,
    ThreadPred,
    Unary,
    UnOp,
    Var,
)
from . import floats
from .values import State

if TYPE_CHECKING:
    from .races import RaceDetector


class EvalError(HoareGpuError):
    """A run-time error in an expression: division by zero, a negative shift amount."""

    def __init__(self, message: str, span: Span | None, thread: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.span = span
        self.thread = thread


def c_div(a: int, b: int, span: Span | None = None) -> int:
    if b == 0:
        raise EvalError("division by zero", span)
    q = abs(a) // abs(b)
    return -q if (a < 0) != (b < 0) else q


def c_mod(a: int, b: int, span: Span | None = None) -> int:
    if b == 0:
        raise EvalError("remainder by zero", span)
    return a - b * c_div(a, b)


MAX_SHIFT = 63  # C's integer types have at most 64 bits: a shift by 64 or more is undefined


def _shift_amount(b: int, span: Span | None) -> None:
    if b < 0:
        raise EvalError(f"negative shift amount {b}", span)
    if b > MAX_SHIFT:
        raise EvalError(f"shift amount {b} is at least the width of the type (undefined in C)", span)


def c_shl(a: int, b: int, span: Span | None = None) -> int:
    _shift_amount(b, span)
    return a * (1 << b)


def c_shr(a: int, b: int, span: Span | None = None) -> int:
    _shift_amount(b, span)
    return a >> b  # arithmetic shift (floor division by 2^b), as C compilers and the VC encoder do


def _b(x: bool) -> int:
    return 1 if x else 0


ARITH: dict[BinOp, Callable[[int, int], int]] = {
    BinOp.ADD: operator.add,
    BinOp.SUB: operator.sub,
    BinOp.MUL: operator.mul,
    # Python's bit operators act on the infinite two's complement expansion: C's result for
    # values in range, and modulo 2^w for unsigned ones (as + - *); `~x` is `x ^ -1`
    BinOp.BAND: operator.and_,
    BinOp.BOR: operator.or_,
    BinOp.BXOR: operator.xor,
    BinOp.LT: lambda a, b: _b(a < b),
    BinOp.LE: lambda a, b: _b(a <= b),
    BinOp.GT: lambda a, b: _b(a > b),
    BinOp.GE: lambda a, b: _b(a >= b),
    BinOp.EQ: lambda a, b: _b(_same(a, b)),
    BinOp.NE: lambda a, b: _b(not _same(a, b)),
    **floats.BINARY,
}


def _same(a: int, b: int) -> bool:
    """`==` (ints, or float values compared for identity in annotations: `hoaregpu.floats`)."""
    if a.__class__ is int and b.__class__ is int:
        return a == b
    return floats.identical(a, b)


PARTIAL: dict[BinOp, Callable[[int, int, Span | None], int]] = {
    BinOp.DIV: c_div,
    BinOp.MOD: c_mod,
    BinOp.SHL: c_shl,
    BinOp.SHR: c_shr,
}


class Ctx:
    """What compiled expressions read: the state, the thread count, the race detector."""

    __slots__ = ("grid", "races", "span", "state", "threads")

    def __init__(self, state: State, races: RaceDetector | None = None) -> None:
        self.state = state
        self.threads = state.threads
        self.grid = len(state.geo.live) > 1  # thread numbers are not threadIdx.x
        self.races = races
        self.span: Span | None = None  # the statement being run: where reads without a span are


VecFn = Callable[[Ctx, list[int]], list[int]]


def _select(ts: list[int], vals: list[int], want: bool) -> tuple[list[int], list[int]]:
    """The positions (into ts) and threads whose value is nonzero (want) / zero (not want)."""
    pos = [k for k, v in enumerate(vals) if (v != 0) == want]
    return pos, [ts[k] for k in pos]


def compile_expr(term: Term, kernel: Kernel) -> VecFn:
    """Compile a program expression of `kernel` to a closure over columns of threads."""
    if isinstance(term, IntLit):
        value = term.value
        return lambda ctx, ts: [value] * len(ts)
    if isinstance(term, ThreadId | BlockId):
        coord = Coord(isinstance(term, BlockId), term.axis)
        if coord == THREAD_X:
            return lambda ctx, ts: [ctx.state.geo.coord(coord, t) for t in ts] if ctx.grid else ts
        return lambda ctx, ts: [ctx.state.geo.coord(coord, t) for t in ts]
    if isinstance(term, ThreadCount | BlockCount):
        size = Coord(isinstance(term, BlockCount), term.axis)
        return lambda ctx, ts: [ctx.state.geo.size(size)] * len(ts)
    if isinstance(term, Var):
        return _compile_var(term, kernel)
    if isinstance(term, Unary):
        inner = compile_expr(term.operand, kernel)
        if term.op in FLOAT_UNOPS:
            op, span = term.op, term.span
            return lambda ctx, ts: [floats.unary(op, v, span) for v in inner(ctx, ts)]
        if term.op is UnOp.NEG:
            return lambda ctx, ts: [-v for v in inner(ctx, ts)]
        return lambda ctx, ts: [0 if v else 1 for v in inner(ctx, ts)]
    if isinstance(term, Binary):
        return _compile_binary(term, kernel)
    if isinstance(term, Conditional):
        c = compile_expr(term.cond, kernel)
        a = compile_expr(term.then, kernel)
        b = compile_expr(term.orelse, kernel)

        def cond(ctx: Ctx, ts: list[int]) -> list[int]:
            cv = c(ctx, ts)
            out = [0] * len(ts)
            for want, f in ((True, a), (False, b)):
                pos, sub = _select(ts, cv, want)
                if sub:
                    for k, v in zip(pos, f(ctx, sub), strict=True):
                        out[k] = v
            return out

        return cond
    if isinstance(term, (Quant, Aggregate, At, Old, ThreadPred)):
        raise HoareGpuError(f"{type(term).__name__} is a formula construct, not a program expression")
    raise HoareGpuError(f"cannot evaluate {term!r}")


def _compile_var(term: Var, kernel: Kernel) -> VecFn:
    name = term.name
    if not kernel.has_decl(name):
        raise HoareGpuError(f"unknown variable {name!r} in a program expression")
    decl = kernel.decl(name)
    idx = [compile_expr(i, kernel) for i in term.indices]
    span = term.span
    if decl.kind is VarKind.LOCAL:
        if not idx:

            def local_scalar(ctx: Ctx, ts: list[int]) -> list[int]:
                vals = ctx.state.scalars[name]
                return [vals[t] for t in ts]

            return local_scalar

        def local_array(ctx: Ctx, ts: list[int]) -> list[int]:
            arrs = ctx.state.local_arrays[name]
            keys = list(zip(*(f(ctx, ts) for f in idx), strict=True))
            return [arrs[t].get(k) for t, k in zip(ts, keys, strict=True)]

        return local_array

    def shared(ctx: Ctx, ts: list[int]) -> list[int]:
        arr = ctx.state.shared[name]
        if len(idx) == 1:
            keys: list[tuple[int, ...]] = [(i,) for i in idx[0](ctx, ts)]
        else:
            keys = list(zip(*(f(ctx, ts) for f in idx), strict=True)) if idx else [()] * len(ts)
        if ctx.races is not None:
            ctx.races.reads(name, keys, ts, span or ctx.span)
        cells, d = arr.cells, arr.default
        return [cells.get(k, d) for k in keys]

    return shared


def _compile_binary(term: Binary, kernel: Kernel) -> VecFn:
    op = term.op
    left = compile_expr(term.left, kernel)
    right = compile_expr(term.right, kernel)
    span = term.span
    if op in ARITH:
        fn = ARITH[op]
        return lambda ctx, ts: list(map(fn, left(ctx, ts), right(ctx, ts)))
    if op in PARTIAL:
        pfn = PARTIAL[op]

        def partial(ctx: Ctx, ts: list[int]) -> list[int]:
            out = []
            for t, a, b in zip(ts, left(ctx, ts), right(ctx, ts), strict=True):
                try:
                    out.append(pfn(a, b, span))
                except EvalError as e:
                    e.thread = t
                    raise
            return out

        return partial
    if op in (BinOp.AND, BinOp.OR, BinOp.IMPLIES):
        # the right operand is evaluated only where the left one does not decide
        need_true = op is not BinOp.OR
        decided = 1 if op is not BinOp.AND else 0

        def logical(ctx: Ctx, ts: list[int]) -> list[int]:
            lv = left(ctx, ts)
            out = [decided] * len(ts)
            pos, sub = _select(ts, lv, need_true)
            if sub:
                for k, v in zip(pos, right(ctx, sub), strict=True):
                    out[k] = 1 if v else 0
            return out

        return logical
    if op is BinOp.IFF:
        return lambda ctx, ts: [
            _b((a != 0) == (b != 0)) for a, b in zip(left(ctx, ts), right(ctx, ts), strict=True)
        ]
    raise HoareGpuError(f"unknown operator {op}")


def binop_scalar(op: BinOp, a: int, b: int, span: Span | None) -> int:
    """`a op b` for one thread (non-short-circuit operators only)."""
    if op in ARITH:
        return ARITH[op](a, b)
    if op in PARTIAL:
        return PARTIAL[op](a, b, span)
    if op is BinOp.IFF:
        return _b((a != 0) == (b != 0))
    raise HoareGpuError(f"operator {op} needs short-circuit evaluation")
