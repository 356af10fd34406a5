"""Expressions of the kernel language and the terms of spec formulas.

Program expressions (paper §2.1: tid, ntid, x[ē], f(ē)) use `IntLit`, `Var`, `ThreadId`,
`ThreadCount`, `Binary`, `Unary` and `Conditional`. Spec formulas (§3 of the spec
language) add `Quant`, `Aggregate`, `At`, `Old` and `ThreadPred`; the parser only builds those inside
annotations. These are syntax trees: the SMT formulas they denote are pySMT FNodes built
by `hoaregpu.smt.encode`. Spans never take part in equality.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import TypeAlias

from .errors import Span


class BinOp(Enum):
    ADD = "+"
    SUB = "-"
    MUL = "*"
    DIV = "/"  # C: truncates toward zero
    MOD = "%"  # C: sign of the dividend
    SHL = "<<"
    SHR = ">>"
    BAND = "&"  # bitwise, on two's complement (hoaregpu.smt.bitops)
    BOR = "|"
    BXOR = "^"
    # C's float/double operators on opaque values (hoaregpu.floats): uninterpreted for the
    # prover, IEEE arithmetic for the interpreters; `a > b` is `b <. a`
    FADD = "+."
    FSUB = "-."
    FMUL = "*."
    FDIV = "/."
    FLT = "<."
    FLE = "<=."
    FEQ = "==."
    FNE = "!=."
    LT = "<"
    LE = "<="
    GT = ">"
    GE = ">="
    EQ = "=="
    NE = "!="
    AND = "&&"
    OR = "||"
    IMPLIES = "==>"  # formulas only
    IFF = "<==>"  # formulas only

    @property
    def is_comparison(self) -> bool:
        return self in _COMPARISONS

    @property
    def is_logical(self) -> bool:
        return self in (BinOp.AND, BinOp.OR, BinOp.IMPLIES, BinOp.IFF)

    @property
    def precedence(self) -> int:
        """Binding strength for printing: higher binds tighter (C's order; `==>`, `<==>` lowest).
        The conditional `?:` sits at 3, between `==>` and `||`."""
        return _PRECEDENCE[self]


_COMPARISONS = frozenset({BinOp.LT, BinOp.LE, BinOp.GT, BinOp.GE, BinOp.EQ, BinOp.NE})
_PRECEDENCE = {
    BinOp.IFF: 1,
    BinOp.IMPLIES: 2,
    BinOp.OR: 4,
    BinOp.AND: 5,
    BinOp.BOR: 6,
    BinOp.BXOR: 7,
    BinOp.BAND: 8,
    BinOp.EQ: 9,
    BinOp.NE: 9,
    BinOp.LT: 10,
    BinOp.LE: 10,
    BinOp.GT: 10,
    BinOp.GE: 10,
    BinOp.SHL: 11,
    BinOp.SHR: 11,
    BinOp.ADD: 12,
    BinOp.SUB: 12,
    BinOp.MUL: 13,
    BinOp.DIV: 13,
    BinOp.MOD: 13,
    BinOp.FADD: 12,
    BinOp.FSUB: 12,
    BinOp.FMUL: 13,
    BinOp.FDIV: 13,
    BinOp.FLT: 10,
    BinOp.FLE: 10,
    BinOp.FEQ: 9,
    BinOp.FNE: 9,
}


class UnOp(Enum):
    NEG = "-"
    NOT = "!"
    # floats (hoaregpu.floats): negation, conversions, and a literal (its operand is the
    # IntLit of the double's IEEE bits, so that equal constants are one term)
    FNEG = "-."
    I2F = "(double)"
    F2I = "(long)"
    F32 = "(float)"
    FLIT = "flit"


class QuantKind(Enum):
    FORALL = "\\forall"
    EXISTS = "\\exists"


class AggKind(Enum):
    """The ACSL aggregates (spec-language §5): `\\sum(lo, hi, \\lambda int k; e)` etc."""

    SUM = "\\sum"
    PRODUCT = "\\product"
    NUMOF = "\\numof"
    MAX = "\\max"
    MIN = "\\min"


class ThreadPredKind(Enum):
    ALL = "\\all"  # Definition 3.5: all(e)
    NONE = "\\none"  # Definition 3.5: none(e)


@dataclass(frozen=True)
class IntLit:
    value: int
    span: Span | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Var:
    """A variable read `x` or an array read `x[e1]..[en]` (local or shared, resolved later)."""

    name: str
    indices: tuple[Term, ...] = ()
    span: Span | None = field(default=None, compare=False, repr=False)


AXES = ("x", "y", "z")

RESULT = "\\result"  # the name `\result` reads as: the value a device function returns


@dataclass(frozen=True)
class ThreadId:
    """`threadIdx.x` (`tid`), `threadIdx.y`, `threadIdx.z` (axis 0, 1, 2)."""

    span: Span | None = field(default=None, compare=False, repr=False)
    axis: int = 0


@dataclass(frozen=True)
class ThreadCount:
    """`blockDim.x` (`ntid`; the paper's N when there is one block), `.y`, `.z`."""

    span: Span | None = field(default=None, compare=False, repr=False)
    axis: int = 0


@dataclass(frozen=True)
class BlockId:
    """`blockIdx.x`, `.y`, `.z`: the block of the thread (spec-language §5)."""

    span: Span | None = field(default=None, compare=False, repr=False)
    axis: int = 0


@dataclass(frozen=True)
class BlockCount:
    """`gridDim.x`, `.y`, `.z`."""

    span: Span | None = field(default=None, compare=False, repr=False)
    axis: int = 0


Builtin: TypeAlias = ThreadId | ThreadCount | BlockId | BlockCount

BUILTINS: dict[str, type[Builtin]] = {
    "threadIdx": ThreadId,
    "blockDim": ThreadCount,
    "blockIdx": BlockId,
    "gridDim": BlockCount,
}


def builtin(base: str, member: str, span: Span | None) -> Builtin | None:
    """`threadIdx.y` etc. as a term; None when `base.member` is not one of the twelve."""
    cls = BUILTINS.get(base)
    if cls is None or member not in AXES:
        return None
    return cls(span, AXES.index(member))


def builtin_name(t: Builtin) -> str:
    """The CUDA spelling, e.g. `blockIdx.y`."""
    base = next(name for name, cls in BUILTINS.items() if isinstance(t, cls))
    return f"{base}.{AXES[t.axis]}"


@dataclass(frozen=True)
class Binary:
    op: BinOp
    left: Term
    right: Term
    span: Span | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Unary:
    op: UnOp
    operand: Term
    span: Span | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Conditional:
    """`c ? a : b`."""

    cond: Term
    then: Term
    orelse: Term
    span: Span | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Quant:
    """`\\forall int i, j; body` / `\\exists ...` (integer-typed bound variables)."""

    kind: QuantKind
    names: tuple[str, ...]
    body: Term
    span: Span | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Aggregate:
    """`\\sum(low, high, \\lambda int name; body)` and the other `AggKind`s: `body` for `name`
    from `low` to `high` inclusive (an empty range: sum 0, product 1, numof 0; `\\max`/`\\min`
    are defined only for `low <= high`). `name` is bound in `body` only."""

    kind: AggKind
    low: Term
    high: Term
    name: str
    body: Term
    span: Span | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class At:
    """`term @ thread`: the value of `term` at thread `thread` (Definition 3.3)."""

    term: Term
    thread: Term
    span: Span | None = field(default=None, compare=False, repr=False)
    # `term @ (block, thread)`: thread `thread` of block `block` (linear ids), made only by
    # the race instrumentation (hoaregpu.races), which compares accesses across blocks
    block: Term | None = None


@dataclass(frozen=True)
class Old:
    """`\\old(term)`: the value of `term` in the kernel's initial state."""

    term: Term
    span: Span | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class ThreadPred:
    """`\\all(e)` / `\\none(e)` (Definition 3.5)."""

    kind: ThreadPredKind
    term: Term
    span: Span | None = field(default=None, compare=False, repr=False)


class AccessKind(Enum):
    """The access facts (spec-language §5, docs/races.md): what the race logs recorded."""

    WRITTEN = "\\written"
    READ = "\\read"


@dataclass(frozen=True)
class Access:
    """`\\written(a, i, ...)` / `\\read(a, i, ...)`: this thread's race log of the plain
    writes / reads of array `a` holds an access of the current barrier interval, at the cell
    `target.indices`; `\\written(a)` (`any_cell`, `target` without indices): at some cell.
    `target` is the cell as an array read `a[i]...` (so that renaming and pointer resolution
    treat it as one); it is not a read. A formula-only term, meaningful only in the race
    kernel (`hoaregpu.access_facts` translates it into the ghost logs of `hoaregpu.races`)."""

    kind: AccessKind
    target: Term  # a `Var` (lowering rejects anything else, e.g. a pointer into several arrays)
    any_cell: bool = False
    span: Span | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Unsigned:
    """`term`, of an unsigned type in C, where C reads it as a number (compares, divides,
    indexes, stores it into an unsigned variable): C's value is the mathematical one when that
    is not negative, and wraps around 2^w otherwise. Made by the front end; lowering turns each
    into an `unsigned-wrap` check before the statement and keeps `term` (`hoaregpu.unsigned`)."""

    term: Term
    span: Span | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Fits:
    """`term` stored into a narrow integer type (`char`, `short`, their unsigned variants):
    C keeps it only if it lies in [low, high] (else it truncates). Made by the front end;
    lowering turns each into a `narrowing` check (`hoaregpu.unsigned`), or an `index-bounds`
    one for `index`."""

    term: Term
    low: int
    high: int
    span: Span | None = field(default=None, compare=False, repr=False)
    # an index into a row of an array (not the first index): C's arrays are row-major memory,
    # ours map index tuples; they agree while it stays in [0, extent - 1] (`index-bounds`)
    index: bool = False


Term: TypeAlias = (
    IntLit
    | Var
    | ThreadId
    | ThreadCount
    | BlockId
    | BlockCount
    | Binary
    | Unary
    | Conditional
    | Quant
    | Aggregate
    | At
    | Old
    | ThreadPred
    | Unsigned
    | Fits
    | Access
)
"""A spec-formula term; program expressions are the subset without Quant/At/Old/ThreadPred."""

Expr: TypeAlias = Term
"""A program expression (by construction free of formula-only nodes)."""
