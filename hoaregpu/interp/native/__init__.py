"""A differential executor independent of our front end (issue 8).

The kernel's original source text is compiled by the system C/C++ compiler with an
emulation header for the CUDA names (`csupport.py`), run on the same JSON inputs as
`hoaregpu run`, and its final array parameters are compared with the lockstep
interpreter's (`execute.py`). Binaries are cached by source hash (`build.py`).
"""

from .build import NativeBuildError, NativeProgram, NativeUnavailable, build, find_compiler
from .execute import (
    AGREE,
    DISAGREE,
    NOT_COMPARABLE,
    Comparison,
    NativeRun,
    NativeTestResult,
    compare,
    native_test,
    render_comparison,
    run_native,
)

__all__ = [
    "AGREE",
    "DISAGREE",
    "NOT_COMPARABLE",
    "Comparison",
    "NativeBuildError",
    "NativeProgram",
    "NativeRun",
    "NativeTestResult",
    "NativeUnavailable",
    "build",
    "compare",
    "find_compiler",
    "native_test",
    "render_comparison",
    "run_native",
]
