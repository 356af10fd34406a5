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

from .execution import Execution, NativeComparison, RunViolation, Testing, run, test
from .proving import Checking, KernelProof, ProofCheck, ProofProblem, Proving, ReplayChange, check, prove
from .verifying import Dims, KernelReport, VcReport, Verification, fixed_launch, from_run, verify

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
