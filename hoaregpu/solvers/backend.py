"""What a solver backend is: the `Backend` interface, the `Answer` it gives from inside the
worker, and the shared classification of messages. A module of its own so that the
registry (which backends exist) and the backends (native, binary) both import it and
neither imports the other at the top: no import circle.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import TYPE_CHECKING

from hoaregpu.solvers.options import SolverOptions
from hoaregpu.solvers.outcome import Outcome, Value

if TYPE_CHECKING:
    from hoaregpu.solvers.session import Session


@dataclass(frozen=True)
class Answer:
    """What a backend says from inside the worker; dispatch adds solver, time and version.

    `model`: after sat, the solver's model as SMT-LIB definitions (`(define-fun ...)`
    forms, as `get-model` prints them), checked against the VC before it is believed
    (`modelcheck`); None when the solver gave none. `configuration`: which of the backend's
    configurations gave it (`strategies`), "" for a backend with one."""

    outcome: Outcome
    values: tuple[Value, ...] = ()
    message: str = ""
    model: str | None = None
    configuration: str = ""


class Backend(ABC):
    """One way of running an SMT-LIB script."""

    name: str

    @abstractmethod
    def version(self) -> str | None:
        """The solver's version, or None when it cannot be told (e.g. not installed)."""

    @abstractmethod
    def unavailable(self) -> str | None:
        """Why this backend cannot run here, or None when it can."""

    @abstractmethod
    def solve(self, script: str, options: SolverOptions) -> Answer:
        """Run `script` (in the worker process) and classify the answer."""

    def session(self, options: SolverOptions) -> Session | None:
        """An incremental session for `--incremental` (`solvers.session`; started in the worker),
        or None when this backend solves one script at a time only."""
        return None

    def session_header(self, options: SolverOptions) -> str:
        """Commands a new session reads first (its limits, when they are options)."""
        return ""

    def identity(self) -> str:
        """What tells this backend apart in the result cache (a user command adds its argv)."""
        return self.name

    def fingerprint(self) -> str | None:
        """What tells this backend's answers apart across runs, the whole-file cache's part of
        its key (`hoaregpu.filecache`): identity and version; None when it cannot run here."""
        if self.unavailable() is not None:
            return None
        try:
            version = self.version() or ""
        except Exception:
            version = ""
        return f"{self.identity()}@{version}"

    def family(self) -> str:
        """The solver this backend runs, whatever the version or interface (`z3` for z3 and
        z3-bin): `--confirm` needs proofs from two families."""
        return self.name


def program_family(program: str) -> str | None:
    """The family of a solver program by its file name (z3 → z3; cvc4, cvc5 → cvc), if known."""
    base = program.rsplit("/", 1)[-1].lower()
    if base.startswith("z3"):
        return "z3"
    if base.startswith(("cvc4", "cvc5")):
        return "cvc"
    return None


def timeout_message(options: SolverOptions) -> str:
    return f"timeout after {float(options.timeout)} s"


def memory_message(options: SolverOptions) -> str:
    return f"memory limit {options.memory_mb} MB exceeded"


def unknown_answer(reason: str, seconds: float, options: SolverOptions) -> Answer:
    """Classify a solver's "unknown": a time limit (by its reason or the clock), memory, or plain unknown."""
    low = reason.lower()
    if "memory" in low or "bad_alloc" in low:
        return Answer(Outcome.ERROR, message=memory_message(options))
    timed_out = any(word in low for word in ("timeout", "canceled", "cancelled", "resourceout", "time limit"))
    if timed_out or seconds >= 0.95 * options.timeout:
        return Answer(Outcome.TIMEOUT, message=timeout_message(options))
    return Answer(Outcome.UNKNOWN, message=f"solver answered unknown ({reason or 'no reason given'})")
