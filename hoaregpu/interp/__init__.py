"""Executable semantics of the core language: lockstep (paper Fig. 1) and interleaving (§5)
interpreters with run-time checks of contracts, race detection, and random testing.

Entry points for the CLI: `run_kernel`, `test_kernel`, `render_run`, `render_test`;
for counterexample replay from the VC side: `replay` with a `State` built on
`empty_state`. The input JSON format is described in `hoaregpu.interp.values`.
"""

from ..limits import DEFAULT_STEP_BUDGET, INTERLEAVE, LOCKSTEP
from .generate import InputGenerator, admissible, sample_admissible, sampling_generator
from .report import render_run, render_test, run_to_json, state_text
from .results import RunResult, TestResult, Violation
from .run import execute, replay, run_kernel
from .testing import test_kernel
from .values import Array, InputError, State, empty_state, initial_state

__all__ = [
    "DEFAULT_STEP_BUDGET",
    "INTERLEAVE",
    "LOCKSTEP",
    "Array",
    "InputError",
    "InputGenerator",
    "RunResult",
    "State",
    "TestResult",
    "Violation",
    "admissible",
    "empty_state",
    "execute",
    "initial_state",
    "render_run",
    "render_test",
    "replay",
    "run_kernel",
    "run_to_json",
    "sample_admissible",
    "sampling_generator",
    "state_text",
    "test_kernel",
]
