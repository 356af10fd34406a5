"""hoaregpu: prove CUDA kernels correct with the Hoare-quadruple logic of Kojima & Igarashi.

    import hoaregpu
    result = hoaregpu.verify("kernel.cu", block_dim=(256,))
    print(result.verified, [(vc.line, vc.kind, vc.outcome) for vc in result.failures])

The API is `hoaregpu.api` (imported on first use, so that `import hoaregpu` stays cheap).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

if TYPE_CHECKING:
    from .api import KernelReport, VcReport, Verification, fixed_launch, verify

_API = frozenset({"verify", "fixed_launch", "Verification", "KernelReport", "VcReport"})
__all__ = ["KernelReport", "VcReport", "Verification", "__version__", "fixed_launch", "verify"]


def __getattr__(name: str) -> Any:
    if name in _API:
        from . import api

        return getattr(api, name)
    raise AttributeError(f"module 'hoaregpu' has no attribute {name!r}")
