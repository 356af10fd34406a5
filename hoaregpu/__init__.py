"""hoaregpu: prove CUDA kernels correct with the Hoare-quadruple logic of Kojima & Igarashi.

    import hoaregpu
    result = hoaregpu.verify("kernel.cu", block_dim=(256,))
    print(result.verified, [(vc.line, vc.kind, vc.outcome) for vc in result.failures])

`run`, `test`, `prove` and `check` are the other commands as functions, and `DaskExecutor`
spreads `verify`'s solver calls over a Dask cluster. The API is `hoaregpu.api` (imported
on first use, so that `import hoaregpu` stays cheap: PEP 562).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

if TYPE_CHECKING:
    from .api import (
        Checking,
        Execution,
        KernelProof,
        KernelReport,
        Proving,
        Testing,
        VcReport,
        Verification,
        check,
        fixed_launch,
        prove,
        run,
        test,
        verify,
    )
    from .solvers.dask_executor import DaskExecutor

_API = frozenset(
    {
        "verify",
        "run",
        "test",
        "prove",
        "check",
        "fixed_launch",
        "Verification",
        "KernelReport",
        "VcReport",
        "Execution",
        "Testing",
        "Proving",
        "KernelProof",
        "Checking",
    }
)
__all__ = [
    "Checking",
    "DaskExecutor",
    "Execution",
    "KernelProof",
    "KernelReport",
    "Proving",
    "Testing",
    "VcReport",
    "Verification",
    "__version__",
    "check",
    "fixed_launch",
    "prove",
    "run",
    "test",
    "verify",
]


def __getattr__(name: str) -> Any:
    if name in _API:
        from . import api

        return getattr(api, name)
    if name == "DaskExecutor":  # needs `pip install 'hoaregpu[dask]'` only when connecting
        from .solvers.dask_executor import DaskExecutor

        return DaskExecutor
    raise AttributeError(f"module 'hoaregpu' has no attribute {name!r}")
