"""What one solver call says about one VC."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum


class Outcome(Enum):
    """The verdict on a VC. The script asserts the VC's negation: unsat is PROVED, sat is REFUTED."""

    PROVED = "proved"
    REFUTED = "refuted"
    UNKNOWN = "unknown"
    TIMEOUT = "timeout"
    ERROR = "error"


Value = int | bool | None


@dataclass(frozen=True)
class SolveTask:
    """One SMT-LIB script (see `hoaregpu.smt.script_text`) for one backend, by name.

    `alternatives`: scripts of other encodings of the same VC, equivalent to `script`
    (`smt.thread_encoding`), raced beside it in the same worker (`solvers.race`); the
    result cache knows the task by `script` alone. `encodings` names the scripts, `script`'s
    first (shown in `SolverResult.encoding`)."""

    script: str
    solver: str
    alternatives: tuple[str, ...] = ()
    encodings: tuple[str, ...] = ()
    # `--incremental` (`solvers.session`): the kernel's shared prefix (one string object for all
    # its VCs), where this VC's part of it ends, and the VC's body: `script` is
    # `prefix[:prefix_end] + body`. Empty: the task is solved one-shot only.
    prefix: str = field(default="", repr=False, compare=False)
    prefix_end: int = 0
    body: str = field(default="", repr=False)
    # scripts of slices of the VC (`vc.slicing`, with fewer hypotheses; a race check's with a
    # stronger goal too, `vc.strengthen`), tried before `script` and the alternatives: their
    # proof proves the VC, their refutation says nothing (`solvers.race`)
    weaker: tuple[str, ...] = field(default=(), repr=False)


@dataclass(frozen=True)
class SolverResult:
    """The answer to a `SolveTask`.

    `values` are the script's get-value answers in query order, only when REFUTED
    (None where the solver gave no usable value); `message` says why for UNKNOWN,
    TIMEOUT and ERROR. `cached`: taken from the result cache, no solver was run.
    `model_check` (REFUTED only): what became of checking the solver's model against the
    VC, `confirmed by z3` or `not checked: <why>` (see `modelcheck`; a model that fails
    the check makes the result an ERROR instead).
    """

    outcome: Outcome
    solver: str
    seconds: float
    values: tuple[Value, ...] = ()
    message: str = ""
    version: str = ""
    cached: bool = False
    model_check: str = ""
    encoding: str = ""  # which of the task's encodings gave the answer (see `SolveTask`)
    configuration: str = ""  # which of the solver's configurations gave it (`solvers.strategies`)

    @property
    def model_checked(self) -> bool:
        return self.model_check.startswith("confirmed")
