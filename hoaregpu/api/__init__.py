"""The Python API: what the `verify`, `run`, `test`, `prove` and `check` commands do, as
functions returning typed, frozen results (README, "Python API").

    import hoaregpu
    result = hoaregpu.verify("specs/bug_off_by_one.cu", solver="z3", block_dim=(4,))
    for vc in result.failures:
        print(vc.file, vc.line, vc.kind, vc.outcome, vc.counterexample)

The command-line subcommands are thin layers over these functions.
"""

from __future__ import annotations

from .verifying import Dims, KernelReport, VcReport, Verification, fixed_launch, from_run, verify

__all__ = [
    "Dims",
    "KernelReport",
    "VcReport",
    "Verification",
    "fixed_launch",
    "from_run",
    "verify",
]
