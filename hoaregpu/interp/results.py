"""What an execution reports: violations, run results and test results."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..core import CheckKind
from ..errors import Span
from .values import State

# Violation kinds.
PRECONDITION = "precondition"
ASSERTION = "assertion"
UNSIGNED_WRAP = "unsigned-wrap"  # a value C computes in an unsigned type is negative
NARROWING = "narrowing"  # a value stored into char/short does not fit
CALL_PRECONDITION = "call-precondition"  # a device function called outside its `requires`
INDEX_BOUNDS = "index-bounds"  # an index of a multi-dimensional array leaves its row
BARRIER_INVARIANT = "barrier-invariant"  # a `barrier invariant` clause false at its barrier

# What an `assert` of each kind is called in messages ("... does not hold").
CHECK_LABEL = {
    CheckKind.ASSERTION: "assertion",
    CheckKind.UNSIGNED_WRAP: "unsigned-wrap check (C wraps a negative value around)",
    CheckKind.NARROWING: "narrowing check (C truncates a value that does not fit)",
    CheckKind.CALL_PRECONDITION: "precondition of the called device function",
    CheckKind.INDEX_BOUNDS: "index-bounds check (C would reach another row of the array)",
    CheckKind.DATA_RACE: "race check",
    CheckKind.BARRIER_INVARIANT: "barrier invariant",
}
LOOP_INVARIANT = "loop-invariant"
POSTCONDITION = "postcondition"
BARRIER_DIVERGENCE = "barrier-divergence"
RACE = "race"
WRITE_CONFLICT = "write-conflict"
STEP_BUDGET = "step-budget"
RUNTIME_ERROR = "runtime-error"  # division by zero, negative shift
ASSUMPTION = "assumption"  # an `assume` that fails: the run stops, not a kernel bug

# Run statuses.
OK = "ok"  # ran to the end, nothing to report
FAILED = "failed"  # ran (possibly to the end) and found violations
STOPPED = "stopped"  # could not continue: barrier divergence, step budget, runtime error
INADMISSIBLE = "inadmissible"  # `requires` violated on entry: the input is not admissible
ASSUMPTION_VIOLATED = "assumption-violated"  # an `assume` failed: not a bug in the kernel

BLOCKING = frozenset({BARRIER_DIVERGENCE, STEP_BUDGET, RUNTIME_ERROR, ASSUMPTION, PRECONDITION})


@dataclass(frozen=True)
class Access:
    """One access of a shared location, for race reports."""

    thread: int
    span: Span | None
    write: bool
    value: int | None = None  # the value written


@dataclass(frozen=True)
class Violation:
    kind: str
    message: str
    span: Span | None
    threads: tuple[int, ...] = ()
    values: tuple[tuple[str, int], ...] = ()  # "a[3]" -> 7 for the first failing thread
    other_span: Span | None = None  # the second access of a race
    benign: bool = False  # an equal-value write-write race (reported, not a failure)


@dataclass
class RunResult:
    kernel: str
    threads: int
    seed: int
    status: str
    inputs: dict[str, Any]
    initial: State
    final: State | None  # None when the run stopped before the end
    violations: list[Violation] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # e.g. quantifier checks that were bounded
    steps: int = 0  # lockstep steps (statements executed with a non-empty mask)
    thread_steps: int = 0  # sum of the active threads over those steps
    semantics: str = "lockstep"

    @property
    def failures(self) -> list[Violation]:
        """Violations that are bugs in the kernel (not benign races, not inadmissible input)."""
        return [v for v in self.violations if not v.benign and v.kind not in (PRECONDITION, ASSUMPTION)]

    @property
    def ok(self) -> bool:
        return self.status == OK


@dataclass
class TestResult:
    __test__ = False  # not a pytest test class
    kernel: str
    seed: int
    trials: int  # inputs tried
    passed: int
    skipped: int  # inputs that violated `requires` (not admissible) or an `assume`
    counterexample: RunResult | None = None  # the shrunk failing run
    original: RunResult | None = None  # the failing run before shrinking
    shrink_steps: int = 0
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.counterexample is None
