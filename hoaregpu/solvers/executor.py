"""Where solver tasks run: the executor interface behind `--executor`.

An executor takes the tasks of one verification run and returns one `SolverResult` per
task, in task order, with the guarantees of `dispatch.solve_many`: each solver call in its
own process under the time and memory limits of `SolverOptions`, refutations model-checked,
everything that goes wrong while solving an ERROR/TIMEOUT result (never an exception),
definitive answers looked up in and stored to the `ResultCache`, `on_result` called as each
task settles, and `stop` honoured (`dispatch.Stopped`).

- `LocalExecutor(jobs)`: `dispatch.solve_many` on this machine (`--executor local`, default);
- `dask_executor.DaskExecutor`: the tasks spread over a Dask cluster (`--executor dask`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from hoaregpu.errors import ConfigError
from hoaregpu.solvers.options import SolverOptions
from hoaregpu.solvers.outcome import SolverResult, SolveTask

if TYPE_CHECKING:
    from hoaregpu.solvers.cache import ResultCache
    from hoaregpu.solvers.dispatch import StopFlag

EXECUTORS = ("local", "dask")


class Executor(Protocol):
    """Runs solver tasks; see the module's docstring for what every executor guarantees."""

    def solve_many(
        self,
        tasks: Sequence[SolveTask],
        options: SolverOptions,
        *,
        cache: ResultCache | None = None,
        on_result: Callable[[int, SolverResult], None] | None = None,
        confirm: bool = False,
        stop: StopFlag | None = None,
    ) -> list[SolverResult]: ...

    def close(self) -> None:
        """Release what the executor started (a local Dask cluster); idempotent."""


@dataclass(frozen=True)
class LocalExecutor:
    """Up to `jobs` forked worker processes on this machine (`dispatch.solve_many`)."""

    jobs: int = 1

    def solve_many(
        self,
        tasks: Sequence[SolveTask],
        options: SolverOptions,
        *,
        cache: ResultCache | None = None,
        on_result: Callable[[int, SolverResult], None] | None = None,
        confirm: bool = False,
        stop: StopFlag | None = None,
    ) -> list[SolverResult]:
        from hoaregpu.solvers.dispatch import solve_many

        return solve_many(
            tasks, options, self.jobs, cache=cache, on_result=on_result, confirm=confirm, stop=stop
        )

    def close(self) -> None:
        pass


def check_executor(name: str, scheduler: str | None) -> None:
    """ConfigError for an unknown executor name, or a scheduler without the Dask executor."""
    if name not in EXECUTORS:
        raise ConfigError(f"unknown executor {name!r}; choose one of {', '.join(EXECUTORS)}")
    if scheduler is not None and name != "dask":
        raise ConfigError("--scheduler needs --executor dask")


def make_executor(name: str, jobs: int, scheduler: str | None = None) -> Executor:
    """The executor `--executor NAME` names: `local` runs `jobs` workers here; `dask` connects
    to `scheduler`, or starts a local cluster of `jobs` workers when a task first needs it.
    The caller closes it."""
    check_executor(name, scheduler)
    if name == "local":
        return LocalExecutor(jobs)
    from hoaregpu.solvers.dask_executor import DaskExecutor

    return DaskExecutor(scheduler, workers=jobs)


@contextlib.contextmanager
def executor_for(executor: str | Executor, jobs: int, scheduler: str | None = None) -> Iterator[Executor]:
    """The API's `executor=` argument as an executor: a name is made here (`make_executor`)
    and closed on leaving; an `Executor` object is the caller's and stays open."""
    if not isinstance(executor, str):
        if scheduler is not None:
            raise ConfigError("`scheduler` goes with executor='dask', not with an Executor object")
        yield executor
        return
    made = make_executor(executor, jobs, scheduler)
    try:
        yield made
    finally:
        made.close()
