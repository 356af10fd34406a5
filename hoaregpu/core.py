"""The core language of Kojima & Igarashi §2.1, plus annotations.

    P ::= x[ē] := e | skip | sync | P; P' | if e then P else P' | while e do P

with `assert φ` / `assume φ` statements and loop invariants attached to `while`.
Variables are declared once per kernel with unique names (lowering renames shadowed
C declarations), each local (per-thread) or shared, of a fixed dimension.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from enum import Enum
from functools import cached_property
from typing import TypeAlias

from .atomics import AtomicOp
from .errors import Span, SpecWarning
from .launch import Coord, Launch
from .terms import Term


class VarKind(Enum):
    LOCAL = "local"  # LV_n: one copy per thread; an (n+1)-ary function of the thread
    SHARED = "shared"  # SV_n: one copy for the grid (a `__shared__` one gets block indices); n-ary


class VarRole(Enum):
    ARRAY_PARAM = "array parameter"
    SCALAR_PARAM = "scalar parameter"  # uniform on entry (same value in every thread)
    SHARED_ARRAY = "__shared__ array"
    LOCAL = "local variable"
    SYNTHETIC = "introduced by a transform"


@dataclass(frozen=True)
class VarDecl:
    name: str
    kind: VarKind
    dim: int
    role: VarRole
    nonnegative: bool = False  # `unsigned` / `size_t`: the fact `>= 0` holds where declared
    boolean: bool = False  # `bool`: a parameter (or cell) holds 0 or 1 on entry
    floating: bool = False  # `float`/`double`: opaque values (hoaregpu.floats)
    source_name: str | None = None  # the C name, when lowering renamed a shadowing declaration
    span: Span | None = field(default=None, compare=False, repr=False)

    @property
    def display_name(self) -> str:
        return self.source_name or self.name


@dataclass(frozen=True)
class Formula:
    """An annotation formula with the span of the clause it comes from."""

    term: Term
    span: Span = field(compare=False, repr=False)


@dataclass(frozen=True)
class Assign:
    """`x[ē] := e`, performed by all active threads in parallel."""

    target: str
    indices: tuple[Term, ...]
    value: Term
    span: Span | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Skip:
    span: Span | None = field(default=None, compare=False, repr=False)


# The memories a barrier orders: CUDA's `__syncthreads()` both; OpenCL's `barrier(flags)` those
# its CLK_LOCAL_MEM_FENCE / CLK_GLOBAL_MEM_FENCE flags name. The lockstep rules do not
# depend on them (every thread sees one memory); they are kept for the race checks.
ALL_FENCES = frozenset({"local", "global"})


@dataclass(frozen=True)
class Sync:
    span: Span | None = field(default=None, compare=False, repr=False)
    # a barrier of the whole grid (cooperative groups' `grid_group::sync()`), not of a block:
    # every thread of every block reaches it or none does, and it orders memory across blocks
    grid: bool = False
    fences: frozenset[str] = field(default=ALL_FENCES, compare=False, repr=False)


@dataclass(frozen=True)
class Seq:
    """`P1; P2; ...; Pn` (n-ary; the empty sequence is skip)."""

    stmts: tuple[Stmt, ...]
    span: Span | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class If:
    cond: Term
    then: Stmt
    orelse: Stmt
    span: Span | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class While:
    cond: Term
    body: Stmt
    invariants: tuple[Formula, ...] = ()
    span: Span | None = field(default=None, compare=False, repr=False)


class CheckKind(Enum):
    """What an `assert` checks: the user's clause, or a check the front end added."""

    ASSERTION = "assertion"
    # C computes a value in an unsigned type here; it equals the mathematical value only
    # when that is not negative (else C wraps it around 2^w)
    UNSIGNED_WRAP = "unsigned-wrap"
    # C stores a value into a narrow type (char, short) here; it keeps it only if it fits
    NARROWING = "narrowing"
    # a call of a device function with a contract: its `requires` at the arguments
    CALL_PRECONDITION = "call-precondition"
    # an index of a multi-dimensional array, not the first: it must stay inside its row, where
    # C's row-major memory and our map from index tuples agree (`t[0][2]` of `int t[2][2]` is
    # C's `t[1][0]`, but a cell of its own here)
    INDEX_BOUNDS = "index-bounds"
    # another thread may access the same memory cell, one of the two a write (hoaregpu.races)
    DATA_RACE = "data-race"
    # a `barrier invariant` clause, proved at the barrier before the arrays it reads are forgotten
    BARRIER_INVARIANT = "barrier-invariant"


@dataclass(frozen=True)
class Assert:
    formula: Formula
    span: Span | None = field(default=None, compare=False, repr=False)
    check: CheckKind = CheckKind.ASSERTION


@dataclass(frozen=True)
class Assume:
    formula: Formula
    span: Span | None = field(default=None, compare=False, repr=False)
    contract: str | None = None  # the `ensures` of this device function, at a call of it
    # a barrier invariant's cut: these variables get arbitrary values, then `formula` is
    # assumed of them (it was proved just before: `lower.py`): the memory it reads, of which
    # what follows knows only that, and the locals whose scope has ended (dead). Those the
    # kernel never writes keep theirs (`vc.wp.vc_assume`).
    forget: tuple[str, ...] = ()


class ExitKind(Enum):
    RETURN = "return"
    BREAK = "break"
    CONTINUE = "continue"


@dataclass(frozen=True)
class Exit:
    """`return;`, `break;`, `continue;`: produced by lowering and removed before anything
    else sees the kernel (`hoaregpu.early_exit` turns them into flags and masks)."""

    kind: ExitKind
    span: Span | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Opaque:
    """The body of a device function called through its contract (§7, spec-language §5).

    The interpreters run `body`; the verifier does not look inside: the locals the body
    assigns get arbitrary new values at the active threads (the `assume` of the function's
    `ensures` that follows says what they are), since the function is verified on its own.
    Such a body writes no memory and has no barrier (the front end checks)."""

    body: Stmt
    function: str
    span: Span | None = field(default=None, compare=False, repr=False)
    # Calls the verifier does not look into at all (hoaregpu/frontend/calls.py), with `body`
    # skip: what they may change arbitrarily (locals at the active threads, memory), ...
    havoc: tuple[str, ...] = ()
    # ... a `__device__` function declared without a body (its value: arbitrary, drawn by the
    # interpreters; its pointer arguments' arrays: havocked by the verifier, kept by them) ...
    declared_only: bool = False
    # ... or an atomic read-modify-write (hoaregpu.atomics; havoc: its cell's array, result)
    atomic: AtomicUpdate | None = None


@dataclass(frozen=True)
class AtomicUpdate:
    """`result = atomicOp(&target[indices], operands...)` at every active thread."""

    op: AtomicOp
    target: str
    indices: tuple[Term, ...]
    operands: tuple[Term, ...]
    result: str
    bits: int | None  # width of an unsigned cell, None for a signed one
    floating: bool = False


Stmt: TypeAlias = Assign | Skip | Sync | Seq | If | While | Assert | Assume | Exit | Opaque


@dataclass(frozen=True)
class Kernel:
    name: str
    params: tuple[str, ...]  # core names of the parameters, in order
    decls: tuple[VarDecl, ...]
    requires: tuple[Formula, ...]
    ensures: tuple[Formula, ...]
    body: Stmt
    # sizes fixed by `requires blockDim.x == K;` etc. (K a literal)
    launch: Launch = field(default_factory=Launch)
    span: Span | None = field(default=None, compare=False, repr=False)
    device: bool = False  # a `__device__` function with a contract, verified on its own
    # coordinates the model keeps although nothing reads them (the race kernel's blocks:
    # hoaregpu.races.with_blocks)
    kept: frozenset[Coord] = frozenset()
    warnings: tuple[SpecWarning, ...] = field(default=(), compare=False, repr=False)  # from the front end

    @property
    def what(self) -> str:
        """How reports name it."""
        return f"device function {self.name}" if self.device else f"kernel {self.name}"

    @property
    def fixed_threads(self) -> int | None:
        """`blockDim.x` when the contract fixes it."""
        return self.launch.threads

    def decl(self, name: str) -> VarDecl:
        return self._decls_by_name[name]

    def has_decl(self, name: str) -> bool:
        return name in self._decls_by_name

    @cached_property
    def _decls_by_name(self) -> dict[str, VarDecl]:
        """(Looked up for every variable the encoder reads: a scan made VC generation
        quadratic in kernels with many variables. The first declaration of a name wins, as
        the scan did.)"""
        out: dict[str, VarDecl] = {}
        for d in self.decls:
            out.setdefault(d.name, d)
        return out


def statements(stmt: Stmt) -> Iterator[Stmt]:
    """`stmt` and every statement inside it (loop and call bodies too), pre-order."""
    stack = [stmt]
    while stack:
        s = stack.pop()
        yield s
        if isinstance(s, Seq):
            stack.extend(reversed(s.stmts))
        elif isinstance(s, If):
            stack += [s.orelse, s.then]
        elif isinstance(s, While | Opaque):
            stack.append(s.body)


def has_barrier(stmt: Stmt) -> bool:
    """Some barrier (`Sync`) lies in `stmt`, at any depth."""
    return any(isinstance(s, Sync) for s in statements(stmt))


def assigned_vars(stmt: Stmt) -> set[str]:
    """Variables on the left-hand side of some assignment in `stmt` (Lemma 4.4)."""
    if isinstance(stmt, Assign):
        return {stmt.target}
    if isinstance(stmt, Seq):
        out: set[str] = set()
        for s in stmt.stmts:
            out |= assigned_vars(s)
        return out
    if isinstance(stmt, If):
        return assigned_vars(stmt.then) | assigned_vars(stmt.orelse)
    if isinstance(stmt, Opaque):
        return assigned_vars(stmt.body) | set(stmt.havoc)
    if isinstance(stmt, While):
        return assigned_vars(stmt.body)
    return set()


def only_checking(kernel: Kernel, span: Span) -> Kernel:
    """`kernel` without the checks (asserts, loop invariants, `ensures`) of clauses on other
    lines than `span`'s: a run that looks for a violation of that clause (execution
    evidence, `interp.replay_cex`) need not evaluate them, and checks change no state.
    (The Blelloch scan at 1,024 threads checks 11 quantified clauses with sums at each of
    its 21 barriers: a run ran out of its step budget at the first.)"""
    line = (span.path, span.line)

    def ours(f: Formula) -> bool:
        return f.span is not None and (f.span.path, f.span.line) == line

    def go(s: Stmt) -> Stmt:
        if isinstance(s, Seq):
            return replace(s, stmts=tuple(go(x) for x in s.stmts))
        if isinstance(s, If):
            return replace(s, then=go(s.then), orelse=go(s.orelse))
        if isinstance(s, While):
            return replace(s, body=go(s.body), invariants=tuple(f for f in s.invariants if ours(f)))
        if isinstance(s, Opaque):
            return replace(s, body=go(s.body))
        if isinstance(s, Assert) and not ours(s.formula):
            return Skip(s.span)
        return s

    return replace(kernel, body=go(kernel.body), ensures=tuple(f for f in kernel.ensures if ours(f)))
