"""CUDA's atomic read-modify-write functions: which exist, and the value each stores.

`atomicOp(p, v)` reads the cell `*p` (`old`), stores `new_value(old, v)` and returns `old`,
as one indivisible step. When several threads address one cell their steps are serialised
in an order CUDA does not specify. The interpreters run the steps one thread at a time
(`hoaregpu.interp.calls`); the verifier encodes them exactly when the active threads address
distinct cells and over-approximates otherwise (`hoaregpu.vc.atomic`).

`new_value` is the one definition of what each function stores, a term over `old` and the
operands: the VC encodes it and the interpreters evaluate it, so both read the same meaning.
Unsigned cells wrap modulo 2^w on `atomicAdd`/`atomicSub` (as C does; the rest of hoaregpu
reads unsigned `+` as mathematical, a documented gap, README "Limitations").
"""

from __future__ import annotations

from enum import Enum

from .errors import Span
from .terms import Binary, BinOp, Conditional, IntLit, Term, Unary, UnOp


class AtomicOp(Enum):
    ADD = "atomicAdd"
    SUB = "atomicSub"
    EXCH = "atomicExch"
    MIN = "atomicMin"
    MAX = "atomicMax"
    INC = "atomicInc"
    DEC = "atomicDec"
    CAS = "atomicCAS"
    AND = "atomicAnd"
    OR = "atomicOr"
    XOR = "atomicXor"

    @property
    def arity(self) -> int:
        """Arguments after the address: `atomicCAS(p, compare, value)` has two."""
        return 2 if self is AtomicOp.CAS else 1


BY_NAME = {op.value: op for op in AtomicOp}
# OpenCL C's atomic functions (and the `atom_` ones of its 32-bit atomics extensions): the
# operation, and the operand when the function takes none (`atomic_inc(p)` adds 1; unlike
# CUDA's `atomicInc(p, limit)` it has no bound)
OPENCL: dict[str, tuple[AtomicOp, int | None]] = {
    f"{prefix}_{name}": entry
    for prefix in ("atomic", "atom")
    for name, entry in {
        "add": (AtomicOp.ADD, None),
        "sub": (AtomicOp.SUB, None),
        "xchg": (AtomicOp.EXCH, None),
        "min": (AtomicOp.MIN, None),
        "max": (AtomicOp.MAX, None),
        "and": (AtomicOp.AND, None),
        "or": (AtomicOp.OR, None),
        "xor": (AtomicOp.XOR, None),
        "inc": (AtomicOp.ADD, 1),
        "dec": (AtomicOp.SUB, 1),
        "cmpxchg": (AtomicOp.CAS, None),
    }.items()
}
# on float cells (CUDA has these two for float; the others are integer-only)
FLOAT_OPS = frozenset({AtomicOp.ADD, AtomicOp.EXCH})


def new_value(
    op: AtomicOp, old: Term, operands: tuple[Term, ...], bits: int | None, floating: bool, span: Span | None
) -> Term:
    """What `op` stores into a cell holding `old`. `bits`: the width of an unsigned cell
    (None for a signed one); `floating`: a `float` cell (only the `FLOAT_OPS`)."""

    def b(o: BinOp, x: Term, y: Term) -> Term:
        return Binary(o, x, y, span)

    v = operands[0]
    if op is AtomicOp.EXCH:
        return v
    if floating:  # only ADD reaches here (the front end rejects the others)
        return Unary(UnOp.F32, b(BinOp.FADD, old, v), span)
    if op in (AtomicOp.ADD, AtomicOp.SUB):
        value = b(BinOp.ADD if op is AtomicOp.ADD else BinOp.SUB, old, v)
        if bits is None:
            return value
        modulus = IntLit(2**bits, span)
        if op is AtomicOp.ADD:  # old, v in [0, 2^w): the sum is below 2^(w+1)
            return Conditional(b(BinOp.LT, value, modulus), value, b(BinOp.SUB, value, modulus), span)
        return Conditional(b(BinOp.GE, old, v), value, b(BinOp.ADD, value, modulus), span)
    if op is AtomicOp.MIN:
        return Conditional(b(BinOp.LT, v, old), v, old, span)
    if op is AtomicOp.MAX:
        return Conditional(b(BinOp.GT, v, old), v, old, span)
    if op is AtomicOp.INC:  # ((old >= v) ? 0 : (old + 1)), unsigned
        return Conditional(b(BinOp.GE, old, v), IntLit(0, span), b(BinOp.ADD, old, IntLit(1, span)), span)
    if op is AtomicOp.DEC:  # (((old == 0) || (old > v)) ? v : (old - 1)), unsigned
        wraps = b(BinOp.OR, b(BinOp.EQ, old, IntLit(0, span)), b(BinOp.GT, old, v))
        return Conditional(wraps, v, b(BinOp.SUB, old, IntLit(1, span)), span)
    if op is AtomicOp.CAS:  # (old == compare ? value : old)
        return Conditional(b(BinOp.EQ, old, v), operands[1], old, span)
    bitwise = {AtomicOp.AND: BinOp.BAND, AtomicOp.OR: BinOp.BOR, AtomicOp.XOR: BinOp.BXOR}
    return b(bitwise[op], old, v)
