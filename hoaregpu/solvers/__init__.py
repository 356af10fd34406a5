"""Solver layer: backends by name, isolated worker processes, outcomes."""

from hoaregpu.solvers.dispatch import solve_many
from hoaregpu.solvers.options import SolverOptions
from hoaregpu.solvers.outcome import Outcome, SolverResult, SolveTask
from hoaregpu.solvers.registry import BackendInfo, get_backend, list_backends

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
