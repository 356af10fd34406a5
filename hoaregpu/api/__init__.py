"""The Python API: what the `verify`, `run`, `test`, `prove` and `check` commands do, as
functions returning typed, frozen results (README, "Python API").

    import hoaregpu
    result = hoaregpu.verify("specs/bug_off_by_one.cu", solver="z3", block_dim=(4,))
    for vc in result.failures:
        print(vc.file, vc.line, vc.kind, vc.outcome, vc.counterexample)

The command-line subcommands are thin layers over these functions: `verifying` (verify),
`execution` (run, test: the interpreter), `proving` (prove, check: derivations).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .execution import Execution, NativeComparison, RunViolation, Testing, run, test
    from .proving import Checking, KernelProof, ProofCheck, ProofProblem, Proving, ReplayChange, check, prove
    from .verifying import Dims, KernelReport, VcReport, Verification, fixed_launch, from_run, verify

# each name from its module on first use (PEP 562): `hoaregpu verify` loads neither the
# interpreter nor the proof checker
_HOME = {
    **dict.fromkeys(("Execution", "NativeComparison", "RunViolation", "Testing", "run", "test"), "execution"),
    **dict.fromkeys(
        (
            "Checking",
            "KernelProof",
            "ProofCheck",
            "ProofProblem",
            "Proving",
            "ReplayChange",
            "check",
            "prove",
        ),
        "proving",
    ),
    **dict.fromkeys(
        ("Dims", "KernelReport", "VcReport", "Verification", "fixed_launch", "from_run", "verify"),
        "verifying",
    ),
}


def __getattr__(name: str) -> Any:
    if name not in _HOME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{_HOME[name]}"), name)
    globals()[name] = value
    return value


__all__ = [
    "Checking",
    "Dims",
    "Execution",
    "KernelProof",
    "KernelReport",
    "NativeComparison",
    "ProofCheck",
    "ProofProblem",
    "Proving",
    "ReplayChange",
    "RunViolation",
    "Testing",
    "VcReport",
    "Verification",
    "check",
    "fixed_launch",
    "from_run",
    "prove",
    "run",
    "test",
    "verify",
]
