"""What the pipeline's stages hand each other: a run's options, prepared VCs and kernels (SMT-LIB text,
queries), the solvers' results per VC and kernel, and the verdict of replaying a
counterexample. Both `driver` and `interp.replay_cex` import these types from here, so
neither imports the other to name them (the replay is run by the driver, lazily).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from . import core
from .clang_options import ClangOptions
from .errors import ConfigError, Span, SpecError
from .launch import Launch
from .limits import DEFAULT_UNROLL
from .race_instrument import Site
from .races import SAME_VALUE
from .solvers.executor import Executor
from .solvers.options import SolverOptions
from .solvers.outcome import Outcome, SolverResult
from .unroll import MissingInvariant
from .vc.kinds import Origin
from .vc.queries import Query

if TYPE_CHECKING:
    from .interp.results import RunResult as Run


@dataclass(frozen=True)
class PreparedVc:
    """A VC as the solvers get it: the standalone script `prefix[:prefix_end] + body`, the
    prefix being the kernel's shared text (`smt.script`: one string for all its VCs, so
    that a kernel's SMT text is linear in its size)."""

    origin: Origin
    body: str
    queries: tuple[Query, ...]
    approximations: tuple[str, ...] = ()  # see `vc.generate.Vc`; `settle_approximate`
    prefix: str = field(default="", repr=False)
    prefix_end: int = 0
    # the same VC in other thread encodings, raced beside `script` (`smt.thread_encoding`)
    alternatives: tuple[str, ...] = field(default=(), repr=False)
    encodings: tuple[str, ...] = ()  # the names of `script`'s encoding and the alternatives'
    # standalone scripts of the VC's slice (`vc.slicing`), where it leaves most of a long
    # path out: its proof proves the VC (`SolveTask.weaker`)
    slices: tuple[str, ...] = field(default=(), repr=False)

    @property
    def script(self) -> str:
        return self.prefix[: self.prefix_end] + self.body


@dataclass(frozen=True)
class PreparedKernel:
    path: str
    kernel: core.Kernel  # after lowering, unrolling and the monotonic-loop transform
    launch: Launch  # the sizes fixed by the contract and the command line

    @property
    def threads(self) -> int | None:
        return self.launch.threads

    vcs: tuple[PreparedVc, ...]
    frontend_seconds: float
    # A script asserting the precondition: unsat means `requires` is contradictory.
    precondition_script: str | None = None
    # loops without a `loop invariant` that were not unrolled: H-WHILE used `true` for them
    missing_invariants: tuple[MissingInvariant, ...] = ()
    smt_prefix: str = field(default="", repr=False)  # the VCs' shared text (`PreparedVc.prefix`)
    races_checked: bool = False  # the VCs include race checks (hoaregpu.races)
    race_sites: Mapping[int, Site] = field(default_factory=dict)  # their access sites, by number
    # the loop invariants inferred for the race checks that Houdini kept: (loop span, text)
    inferred_invariants: tuple[tuple[Span, str], ...] = ()
    # where the clauses with access facts stand (hoaregpu.access_facts): no run can check them
    access_facts: frozenset[tuple[str, int, int]] = frozenset()
    # the program and launch the race VCs speak of, where they keep blocks the kernel does
    # not read (hoaregpu.races.with_blocks): their counterexamples are replayed on it
    race_program: tuple[core.Kernel, Launch] | None = None


@dataclass(frozen=True)
class VcResult:
    vc: PreparedVc
    result: SolverResult
    replay: ReplayVerdict | None = None  # a refuted VC run from its model (`interp.replay_cex`)

    @property
    def violated_by_run(self) -> bool:
        """The solver left the VC undecided, but a run of the kernel violates its clause (kind
        and line: `interp.replay_cex.execution_evidence`). That shows the kernel wrong; the VC
        keeps the solver's answer (a run at one iteration of an unrolled loop, or one access
        of a race's pair, does not say which VC of the clause is false)."""
        undecided = self.result.outcome in (Outcome.UNKNOWN, Outcome.TIMEOUT)
        return undecided and self.replay is not None and self.replay.confirmed


@dataclass(frozen=True)
class KernelResult:
    prepared: PreparedKernel
    results: tuple[VcResult, ...]
    precondition: SolverResult | None = None  # satisfiability of `requires` (sat = REFUTED)
    # device functions called through their contracts whose own verification did not succeed
    unverified_callees: tuple[str, ...] = ()

    @property
    def vacuous(self) -> bool:
        """`requires` is contradictory: the solver proved its negation."""
        return self.precondition is not None and self.precondition.outcome is Outcome.PROVED

    @property
    def verdict(self) -> str:
        outcomes = {r.result.outcome for r in self.results}
        if Outcome.REFUTED in outcomes or any(r.violated_by_run for r in self.results):
            return "failed"
        if self.vacuous:
            return "vacuous"
        if outcomes <= {Outcome.PROVED} and not self.unverified_callees:
            return "verified"
        return "unknown"


@dataclass(frozen=True)
class RunResult:
    kernels: tuple[KernelResult, ...]
    errors: tuple[SpecError, ...]

    @property
    def exit_code(self) -> int:
        """0 all proved, 1 some VC refuted, 2 otherwise undecided, 3 input error."""
        if self.errors:
            return 3
        verdicts = {k.verdict for k in self.kernels}
        if "failed" in verdicts:
            return 1
        if verdicts & {"unknown", "vacuous"}:
            return 2
        return 0


@dataclass(frozen=True)
class ReplayVerdict:
    """Whether running the counterexample shows the failure, and what happened."""

    confirmed: bool
    detail: str
    threads: int | None = None
    inputs: dict[str, Any] | None = None
    run: Run | None = None

    @property
    def note(self) -> str:
        """The report's `note:` text."""
        if self.confirmed:
            return f"confirmed by execution: {self.detail}"
        if self.detail.startswith(("replay failed", "not reproduced", "not replayed")):
            return self.detail
        return f"not reproduced by execution: {self.detail}"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"confirmed": self.confirmed, "detail": self.detail}
        if self.threads is not None:
            out["threads"] = self.threads
        if self.inputs is not None:
            out["inputs"] = self.inputs
        return out


@dataclass(frozen=True)
class VerifyOptions:
    solver: str = "z3"
    solver_options: SolverOptions = field(default_factory=SolverOptions)
    threads: int | Launch | None = None
    jobs: int = 1
    cache: bool = False  # look up / store definitive answers in the result cache (CLI: on)
    confirm: bool = False  # a VC is proved only by two solver families (`solvers.portfolio`)
    unroll: int = DEFAULT_UNROLL  # iterations up to which a loop without invariant is unrolled
    clang: ClangOptions = field(default_factory=ClangOptions)  # `-D`, `-I`
    check_races: bool = True  # race VCs (hoaregpu.races); off (`--assume-race-free`): assumed
    benign_writes: str = SAME_VALUE  # which same-value writes are no race (races.BENIGN_WRITES)
    executor: Executor | None = None  # where solver tasks run (None: `jobs` local workers)

    def __post_init__(self) -> None:
        if self.unroll < 0:
            raise ConfigError(f"--unroll must be at least 0, not {self.unroll}")
        if isinstance(self.threads, int) and self.threads < 1:
            raise ConfigError(f"--threads must be at least 1, not {self.threads}")
        if self.jobs < 1:
            raise ConfigError(f"--jobs must be at least 1, not {self.jobs}")
