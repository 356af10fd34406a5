"""`--executor dask`: solver tasks spread over a Dask cluster (`pip install 'hoaregpu[dask]'`).

One Dask task per solver task (per VC). The task runs `dispatch.solve_many` on that one
task *on the worker*, so every guarantee of the local executor holds there unchanged:
the solver runs in a freshly forked process under the time limit (killed with its process
group at timeout + grace) and the memory limit (RLIMIT_AS), a refutation's model is checked
before it counts, a portfolio races its members (one process each) and the first definitive
answer settles it, and whatever goes wrong while solving is a result, not an exception.

The client keeps the rest:
- results come back in task order, `on_result` is called as each task settles (progress);
- the cache is merged: the client looks every task up in its `ResultCache` first (a cached
  proof or refutation starts no Dask task), hands the task's entries to the worker, and
  stores what the worker's `solve_many` stored, keyed by the *worker's* solver version;
- a lost worker or a failed task (KilledWorker, a broken connection) is an ERROR result for
  that VC; a setup error on the worker (an unknown solver, one not installed there) is
  raised, as the local executor raises it;
- `stop`: the client cancels the tasks not started and sets a `distributed.Event` that the
  running ones poll (through `solve_many`'s own `stop`), which kills their solvers.

The workers must import the same hoaregpu (and have the solvers) as the client.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import queue
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from types import TracebackType
from typing import TYPE_CHECKING, Any

from hoaregpu.errors import ConfigError, HoareGpuError
from hoaregpu.solvers.cache import DEFINITIVE, UNDECIDED, ResultCache, cache_key
from hoaregpu.solvers.options import SolverOptions
from hoaregpu.solvers.outcome import Outcome, SolverResult, SolveTask
from hoaregpu.solvers.portfolio import members

if TYPE_CHECKING:
    from hoaregpu.solvers.dispatch import StopFlag

CONNECT_TIMEOUT = 30.0
"""Seconds to reach a scheduler given by `--scheduler`, and for it to have a worker."""

POLL_SECONDS = 0.2
"""How often the client looks at `stop` and at its connection while waiting for results."""

# distributed's classes, as Any: its annotations are partial (mypy --strict flags its calls)
Client = Any
Future = Any
LocalCluster = Any

Entries = dict[str, dict[str, Any]]
"""Cache documents by key (`ResultCache.read_entry`)."""


def _import_distributed() -> Any:
    try:
        import distributed
    except ImportError:
        raise ConfigError(
            "--executor dask needs Dask: pip install 'hoaregpu[dask]' (dask and distributed)"
        ) from None
    return distributed


# --- worker side -------------------------------------------------------------------------


class _MemoryCache(ResultCache):
    """The cache seen by `solve_many` on a worker: the client's entries for the task, and a
    record of what it stores (sent back to the client, which writes it to its cache)."""

    def __init__(self, entries: Entries) -> None:
        super().__init__(directory="")  # never used: nothing is read from or written to disk
        self.entries = dict(entries)
        self.written: Entries = {}

    def read_entry(self, key: str) -> dict[str, Any] | None:
        return self.entries.get(key)

    def write_entry(self, key: str, doc: dict[str, Any]) -> None:
        self.entries[key] = self.written[key] = doc
        self.stores += 1


class _WorkerStop:
    """The run's stop `distributed.Event` as `solve_many` polls it: asked the scheduler at most
    every POLL_SECONDS (each question is a round trip)."""

    def __init__(self, name: str) -> None:
        self.event = _import_distributed().Event(name)
        self.asked = 0.0
        self.answer = False

    def is_set(self) -> bool:
        now = time.monotonic()
        if not self.answer and now - self.asked >= POLL_SECONDS:
            self.asked = now
            with contextlib.suppress(Exception):  # the scheduler gone: the task is lost anyway
                self.answer = bool(self.event.is_set())
        return self.answer


_FORK_LOCK = threading.Lock()
_FORKING = 0  # tasks of this worker process inside `_forking_allowed`
_DAEMON = False  # the flag they lifted, restored by the last one out


@contextlib.contextmanager
def _forking_allowed() -> Iterator[None]:
    """Let `solve_many` fork in a daemonic process.

    Dask's worker processes are daemonic (`distributed.worker.daemon`), and multiprocessing
    refuses to start children there, as they could outlive their parent. `solve_many` kills
    and reaps every process it starts before it returns, also when it raises, so none
    outlives the task: the flag is lifted for the call (counted, for workers with threads)."""
    global _FORKING, _DAEMON
    config: dict[str, Any] = vars(multiprocessing.current_process())["_config"]
    with _FORK_LOCK:
        if _FORKING == 0:  # the first of the worker's running tasks sees the true flag
            _DAEMON = bool(config.get("daemon"))
        _FORKING += 1
        config["daemon"] = False
    try:
        yield
    finally:
        with _FORK_LOCK:
            _FORKING -= 1
            if _FORKING == 0:
                config["daemon"] = _DAEMON


def solve_on_worker(
    task: SolveTask,
    options: SolverOptions,
    confirm: bool,
    entries: Entries,
    commands: dict[str, str],
    stop_event: str | None,
) -> tuple[SolverResult, Entries]:
    """The body of one Dask task: `solve_many` on one task; the result and the cache stores."""
    from hoaregpu.solvers.dispatch import solve_many
    from hoaregpu.solvers.registry import register_command, user_commands

    known = user_commands()
    for name, command in commands.items():
        if known.get(name) != command:
            register_command(name, command)
    cache = _MemoryCache(entries)
    stop = _WorkerStop(stop_event) if stop_event is not None else None
    with _forking_allowed():
        (result,) = solve_many(
            [task], options, len(members(task.solver)), cache=cache, confirm=confirm, stop=stop
        )
    return result, cache.written


# --- client side -------------------------------------------------------------------------


def _keys_on_client(names: set[str]) -> dict[str, tuple[str, str]]:
    """(identity, version) of each backend here, for cache lookups; a backend that does not
    run on the client (only on the workers) gets no version, so its lookups miss."""
    from hoaregpu.solvers.registry import get_backend

    out = {}
    for name in sorted(names):
        backend = get_backend(name)  # ConfigError for an unknown name, before any work
        try:
            version = "" if backend.unavailable() is not None else (backend.version() or "")
        except Exception:
            version = ""
        out[name] = (backend.identity(), version)
    return out


def _merge(cache: ResultCache, written: Entries) -> None:
    """Store a worker's cache stores, keeping a stored proof or refutation over an undecided
    answer (as `ResultCache.put` does)."""
    definitive = {o.value for o in DEFINITIVE}
    for key, doc in written.items():
        if doc.get("outcome") in {o.value for o in UNDECIDED}:
            old = cache.read_entry(key)
            if old is not None and old.get("outcome") in definitive:
                continue
        cache.write_entry(key, doc)


def _lost(task: SolveTask, why: str) -> SolverResult:
    return SolverResult(Outcome.ERROR, task.solver, 0.0, message=f"dask: {why}"[:1000])


class DaskExecutor:
    """Solve on a Dask cluster: the one at `scheduler` (`tcp://HOST:PORT`), or a local
    cluster of `workers` single-threaded worker processes (`processes=False`: threads of
    this process), or through an existing `client`. Use as a context manager (or call
    `close`): a cluster it started is shut down then."""

    def __init__(
        self,
        scheduler: str | None = None,
        *,
        workers: int = 2,
        processes: bool = True,
        client: Client | None = None,
        connect_timeout: float = CONNECT_TIMEOUT,
    ) -> None:
        if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
            raise ConfigError(f"the Dask executor needs at least 1 worker, not {workers!r}")
        self.scheduler = scheduler
        self.workers = workers
        self.processes = processes
        self.connect_timeout = connect_timeout
        self._client: Client | None = client
        self._owned = client is None
        self._cluster: LocalCluster | None = None

    def __enter__(self) -> DaskExecutor:
        self.client()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def client(self) -> Client:
        """The Dask client, connecting (or starting the local cluster) on first use."""
        if self._client is not None:
            return self._client
        distributed = _import_distributed()
        if self.scheduler is not None:
            try:
                client = distributed.Client(
                    self.scheduler, timeout=self.connect_timeout, set_as_default=False
                )
            except (OSError, TimeoutError, ValueError, TypeError) as exc:
                raise ConfigError(f"cannot reach the Dask scheduler at {self.scheduler}: {exc}") from None
            try:
                client.wait_for_workers(1, timeout=self.connect_timeout)
            except (OSError, TimeoutError) as exc:
                client.close()
                raise ConfigError(f"the Dask scheduler at {self.scheduler} has no worker: {exc}") from None
        else:
            self._cluster = distributed.LocalCluster(
                n_workers=self.workers,
                threads_per_worker=1,  # a worker's thread waits on one solver process at a time
                processes=self.processes,
                dashboard_address=None,
                silence_logs=logging.ERROR,
            )
            client = distributed.Client(self._cluster, set_as_default=False)
        self._client = client
        return client

    def close(self) -> None:
        if self._owned and self._client is not None:
            self._client.close()
            self._client = None
        if self._cluster is not None:
            self._cluster.close()
            self._cluster = None

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
        """As `dispatch.solve_many` (the module's docstring says how it is spread)."""
        from hoaregpu.solvers.dispatch import Stopped
        from hoaregpu.solvers.registry import user_commands

        groups = [members(t.solver) for t in tasks]
        keys = _keys_on_client({name for group in groups for name in group})
        results: list[SolverResult | None] = [None] * len(tasks)

        def deliver(index: int, result: SolverResult) -> None:
            results[index] = result
            if on_result is not None:
                on_result(index, result)

        submit: list[tuple[int, Entries]] = []
        for index, task in enumerate(tasks):
            entries: Entries = {}
            if cache is not None:
                hits = []
                for name in groups[index]:
                    key = cache_key(task.script, *keys[name])
                    hit = cache.get(key, options)
                    doc = cache.read_entry(key)
                    if hit is not None and doc is not None:
                        hits.append(hit)
                        entries[key] = doc
                definitive = [h for h in hits if h.outcome in DEFINITIVE]
                if definitive and not confirm:  # as `solve_many`: no task for a cached answer
                    deliver(index, definitive[0])
                    continue
            submit.append((index, entries))
        if not submit:
            return [r for r in results if r is not None]

        client = self.client()
        distributed = _import_distributed()
        run = uuid.uuid4().hex
        stop_name = f"hoaregpu-stop-{run}" if stop is not None else None
        futures: list[Future] = client.map(
            solve_on_worker,
            [tasks[i] for i, _ in submit],
            [options] * len(submit),
            [confirm] * len(submit),
            [e for _, e in submit],
            [user_commands()] * len(submit),
            [stop_name] * len(submit),
            key=[f"hoaregpu-solve-{run}-{i}" for i, _ in submit],
            pure=False,
        )
        index_of = {f.key: i for f, (i, _) in zip(futures, submit, strict=True)}
        done: queue.Queue[Any] = queue.Queue()
        for f in futures:
            f.add_done_callback(done.put)
        left = len(futures)
        try:
            while left:
                try:
                    future = done.get(timeout=POLL_SECONDS)
                except queue.Empty:
                    if stop is not None and stop.is_set():
                        raise Stopped("solving stopped on request") from None
                    if client.status in ("closed", "closing"):
                        raise ConfigError("the connection to the Dask scheduler was lost") from None
                    continue
                left -= 1
                index = index_of[future.key]
                deliver(index, self._settled(future, tasks[index], cache))
                if stop is not None and stop.is_set():
                    raise Stopped("solving stopped on request")
        finally:
            if left:
                if stop_name is not None:
                    with contextlib.suppress(Exception):
                        distributed.Event(stop_name, client=client).set()
                with contextlib.suppress(Exception):
                    client.cancel([f for f in futures if not f.done()])
        return [r for r in results if r is not None]

    @staticmethod
    def _settled(future: Future, task: SolveTask, cache: ResultCache | None) -> SolverResult:
        if future.status == "finished":
            result, written = future.result()
            if cache is not None:
                _merge(cache, written)
            return result  # type: ignore[no-any-return]
        if future.cancelled():
            return _lost(task, "the task was cancelled on the cluster")
        exc = future.exception()
        if isinstance(exc, HoareGpuError):
            raise exc  # a setup error on the worker: raised, as by the local executor
        return _lost(task, f"{type(exc).__name__}: {exc}")
