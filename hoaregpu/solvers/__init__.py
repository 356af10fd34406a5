"""Solver layer: backends by name, isolated worker processes, outcomes.

The names below are imported from their modules on first use (PEP 562), so that importing
`hoaregpu.solvers.options` for `SolverOptions` does not start the dispatcher's imports:
the command line's start-up (`hoaregpu --help`) depends on it.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hoaregpu.solvers.dispatch import solve_many
    from hoaregpu.solvers.options import SolverOptions
    from hoaregpu.solvers.outcome import Outcome, SolverResult, SolveTask
    from hoaregpu.solvers.registry import BackendInfo, get_backend, list_backends

_HOME = {
    "solve_many": "dispatch",
    "SolverOptions": "options",
    "Outcome": "outcome",
    "SolverResult": "outcome",
    "SolveTask": "outcome",
    "BackendInfo": "registry",
    "get_backend": "registry",
    "list_backends": "registry",
}

__all__ = [
    "BackendInfo",
    "Outcome",
    "SolveTask",
    "SolverOptions",
    "SolverResult",
    "get_backend",
    "list_backends",
    "solve_many",
]


def __getattr__(name: str) -> Any:
    if name in _HOME:
        return getattr(import_module(f"hoaregpu.solvers.{_HOME[name]}"), name)
    raise AttributeError(f"module 'hoaregpu.solvers' has no attribute {name!r}")
