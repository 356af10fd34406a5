"""Run solver tasks, each in its own freshly forked worker process.

Why a process per call: z3 is not repeatable inside one process (the same VC took
10 ms to a 10 s timeout), and formulas must not be shared between pySMT environments.
The parent never solves; it forks a worker per task, hands it the SMT-LIB text,
and gets back a small tuple. The parent enforces the wall-clock limit (timeout +
grace, then SIGKILL to the worker's whole process group, which includes any solver
binary it started); the worker caps its own address space with RLIMIT_AS, at what it
inherited from the parent plus the memory limit (a fork shares the parent's address space,
which in a long-lived process such as a test run or the language server may be gigabytes
already: a cap below it would fail the solver's first thread at once).
Solver misbehaviour of any kind becomes a SolverResult, never an exception.

A refutation is checked before it counts: the worker that got sat checks the solver's
model against the VC (`modelcheck`); it first tells the parent, which then gives it
`check_seconds` more. A model that does not satisfy the negated VC makes the answer an
ERROR.

A portfolio task (see `portfolio`) runs one worker per member; the first definitive
answer settles the task and the other members' workers are killed, unless `confirm`
asks for every member's answer. `jobs` bounds the number of workers alive at once,
whatever the tasks. With a `ResultCache`, a task whose answer is cached starts no worker
at all (under `confirm`, a member whose answer is cached).
"""

from __future__ import annotations

import contextlib
import faulthandler
import multiprocessing
import os
import resource
import signal
import time
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Protocol

from hoaregpu.errors import ConfigError, HoareGpuError, SolverError
from hoaregpu.solvers.backend import Answer, Backend, memory_message, timeout_message
from hoaregpu.solvers.cache import ResultCache, cache_key
from hoaregpu.solvers.modelcheck import ModelVerdict, check_model, check_seconds
from hoaregpu.solvers.options import SolverOptions
from hoaregpu.solvers.outcome import Outcome, SolverResult, SolveTask, Value
from hoaregpu.solvers.portfolio import DEFINITIVE, combine, members
from hoaregpu.solvers.race import race
from hoaregpu.solvers.registry import get_backend

GRACE_SECONDS = 1.0
"""How long past the timeout the parent waits before killing a worker."""

AGREE_WINDOW = 0.02
"""After a portfolio member's definitive answer, the other members still running get up to
this long (and at most a tenth of the winner's time) to answer too before they are
killed, so that a near-simultaneous contradicting answer is seen as a disagreement."""

_Reply = tuple[str, tuple[Value, ...], str, str, int, str]
"""outcome, values, message, model check, the index of the script (of the task's encodings),
the solver configuration that answered (`strategies`)"""
_CHECKING = "checking"
"""A worker's first message when its solver answered sat: its model is being checked."""


def _checked(conn: Connection, name: str, script: str, answer: Answer, options: SolverOptions) -> _Reply:
    """A REFUTED answer after its model has been checked against the VC (in this worker)."""
    conn.send((_CHECKING, (), "", "", 0, ""))
    check = check_model(script, answer.model, check_seconds(options))
    if check.verdict is ModelVerdict.WRONG:
        message = f"solver {name}'s counterexample does not satisfy the VC ({check.note()}): a solver bug"
        return (Outcome.ERROR.value, (), message, "", 0, answer.configuration)
    return (Outcome.REFUTED.value, answer.values, answer.message, check.note(), 0, answer.configuration)


def _address_space() -> int:
    """This process's virtual size in bytes (0 where /proc is missing)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as f:
            return int(f.read().split()[0]) * resource.getpagesize()
    except (OSError, ValueError, IndexError):
        return 0


def _limit_worker(options: SolverOptions) -> None:
    """A worker's own process group, no Python crash dump, and its address-space cap."""
    os.setpgid(0, 0)
    faulthandler.disable()  # a crashing solver is reported as ERROR, without a Python dump
    if options.memory_mb is not None:
        limit = _address_space() + options.memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def _worker(
    conn: Connection, name: str, scripts: tuple[str, ...], options: SolverOptions, weaker_from: int
) -> None:
    """Body of a worker process: solve one script, check a model, send the reply, exit."""
    reply: _Reply
    try:
        _limit_worker(options)
        which, answer = race(get_backend(name), scripts, options, weaker_from)  # one script: no race
        if answer.outcome is Outcome.REFUTED:
            checked = _checked(conn, name, scripts[which], answer, options)
            reply = (*checked[:4], which, checked[5])
        else:
            reply = (answer.outcome.value, answer.values, answer.message, "", which, answer.configuration)
    except MemoryError:
        reply = (Outcome.ERROR.value, (), memory_message(options), "", 0, "")
    except BaseException as exc:
        text = f"{type(exc).__name__}: {exc}"
        if "bad_alloc" in text or "out of memory" in text.lower():
            reply = (Outcome.ERROR.value, (), memory_message(options), "", 0, "")
        else:
            reply = (Outcome.ERROR.value, (), f"solver crashed: {text}"[:1000], "", 0, "")
    try:
        conn.send(reply)
        conn.close()
    finally:
        os._exit(0)


STOP_POLL_SECONDS = 0.2


class Stopped(HoareGpuError):
    """`solve_many` was asked to stop (its `stop` event was set)."""


class StopFlag(Protocol):
    """What `stop` must offer: a `threading.Event`, or a Dask worker's view of a
    `distributed.Event` (`dask_executor`)."""

    def is_set(self) -> bool: ...


@dataclass
class _Running:
    """One worker: member `name` of task `index` (a plain task has one member, its solver)."""

    index: int
    name: str
    script: str
    process: BaseProcess
    conn: Connection
    start: float
    deadline: float
    solved_at: float | None = None  # when the solver answered sat, before its model was checked


def _kill(run: _Running) -> None:
    """Kill the worker and its whole process group (solver binaries it started), then reap it.

    Also done after a normal answer, to leave no stray grandchild behind. The worker is
    not reaped before the kill, so its pid (the group's id) cannot have been reused."""
    pid = run.process.pid
    if pid is not None:
        for kill in (os.killpg, os.kill):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                kill(pid, signal.SIGKILL)
    run.process.join()
    run.conn.close()


def _crash_message(exitcode: int | None, options: SolverOptions) -> str:
    if exitcode is not None and exitcode < 0:
        try:
            what = f"killed by signal {signal.Signals(-exitcode).name}"
        except ValueError:
            what = f"killed by signal {-exitcode}"
    else:
        what = f"exited with status {exitcode} without an answer"
    hint = f" (perhaps the memory limit of {options.memory_mb} MB)" if options.memory_mb is not None else ""
    return f"solver crashed: {what}{hint}"


def _check_backends(names: Iterable[str]) -> dict[str, str]:
    """Resolve every backend once (ConfigError for an unknown name, SolverError if it cannot
    run here) and return their versions."""
    versions: dict[str, str] = {}
    for name in sorted(set(names)):
        backend: Backend = get_backend(name)
        reason = backend.unavailable()
        if reason is not None:
            raise SolverError(f"solver {name!r} is not available: {reason}")
        try:
            versions[name] = backend.version() or ""
        except Exception:
            versions[name] = ""
    return versions


def _receive(run: _Running, options: SolverOptions) -> _Reply | None:
    """The worker's reply if it has sent one (without blocking). A worker that checks a model
    gets more time for it."""
    try:
        while run.conn.poll():
            reply: _Reply = run.conn.recv()
            if reply[0] != _CHECKING:
                return reply
            run.solved_at = time.monotonic()  # the solver's time excludes the check
            run.deadline = run.solved_at + check_seconds(options) + GRACE_SECONDS
    except (EOFError, OSError):
        pass
    return None


def solve_many(
    tasks: Sequence[SolveTask],
    options: SolverOptions,
    jobs: int = 1,
    *,
    cache: ResultCache | None = None,
    on_result: Callable[[int, SolverResult], None] | None = None,
    confirm: bool = False,
    stop: StopFlag | None = None,
) -> list[SolverResult]:
    """Solve every task, up to `jobs` worker processes at a time; results come in task order.

    `cache`: look definitive answers up before starting workers, and store new ones.
    `confirm`: every member of a task answers, and `portfolio.combine` needs two solver
    families to prove a VC (a single-solver task cannot be proved then).
    `on_result(index, result)` is called as each task is settled (in completion order).
    `stop`: once set, the running workers are killed and `Stopped` is raised (the language
    server stops a check that a newer save made stale); it is looked at every 0.2 s.
    Raises ConfigError for an unknown solver name or bad `jobs`, SolverError for a
    backend that cannot run on this machine; everything that goes wrong while solving
    (timeouts, memory, crashes, disagreeing portfolio members) is reported in the results.
    """
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ConfigError(f"jobs must be a positive integer, not {jobs!r}")
    groups = [members(t.solver) for t in tasks]
    versions = _check_backends(name for group in groups for name in group)
    identities = {name: get_backend(name).identity() for name in versions}
    ctx = multiprocessing.get_context("fork")
    results: list[SolverResult | None] = [None] * len(tasks)
    answers: list[dict[str, SolverResult]] = [{} for _ in tasks]
    first_start: dict[int, float] = {}
    pending: deque[tuple[int, str]] = deque()
    running: dict[tuple[int, str], _Running] = {}

    def key(index: int, name: str) -> str:
        return cache_key(tasks[index].script, identities[name], versions[name])

    def deliver(index: int, result: SolverResult) -> None:
        results[index] = result
        if on_result is not None:
            on_result(index, result)

    def settle(index: int) -> None:
        for unit in [u for u in running if u[0] == index]:
            _kill(running.pop(unit))
        got = answers[index]
        if len(groups[index]) == 1 and not confirm:
            result = got[groups[index][0]]
        else:
            seconds = round(time.monotonic() - first_start.get(index, time.monotonic()), 3)
            result = combine(tasks[index].solver, got, seconds, confirm=confirm)
        outcomes = {r.outcome for r in got.values()}
        if (
            cache is not None and not {Outcome.PROVED, Outcome.REFUTED} <= outcomes
        ):  # a conflict: one is wrong
            for name, r in got.items():  # each member's own answer, as it would be on its own
                cache.put(key(index, name), r, options)  # the cache keeps what it may reuse
        deliver(index, result)

    def record(
        run: _Running,
        outcome: Outcome,
        values: tuple[Value, ...],
        message: str,
        check: str,
        which: int = 0,
        configuration: str = "",
    ) -> None:
        task = tasks[run.index]
        if which > len(task.alternatives):
            encoding = "slice"  # `SolveTask.weaker`
        else:
            encoding = task.encodings[which] if which < len(task.encodings) else ""
        answers[run.index][run.name] = SolverResult(
            outcome=outcome,
            solver=run.name,
            seconds=round((run.solved_at or time.monotonic()) - run.start, 3),
            values=values if outcome is Outcome.REFUTED else (),
            message=message,
            version=versions[run.name],
            model_check=check if outcome is Outcome.REFUTED else "",
            encoding=encoding,
            configuration=configuration,
        )

    def member_done(run: _Running, reply: _Reply) -> None:
        outcome = Outcome(reply[0])
        _kill(run)
        del running[(run.index, run.name)]
        record(run, outcome, tuple(reply[1]), reply[2], reply[3], reply[4], reply[5])
        siblings = [r for u, r in running.items() if u[0] == run.index]
        if outcome in DEFINITIVE and not confirm:
            # Members that have answered too count, so that a disagreement is seen.
            window = min(AGREE_WINDOW, 0.1 * (time.monotonic() - run.start))
            if siblings and window > 0:
                wait([sib.conn for sib in siblings], timeout=window)
            for sib in siblings:
                got = _receive(sib, options)
                if got is not None:
                    record(sib, Outcome(got[0]), tuple(got[1]), got[2], got[3], got[4], got[5])
            settle(run.index)
        elif not siblings and not any(u[0] == run.index for u in pending):
            settle(run.index)

    for index in range(len(tasks)):
        hits = {}
        if cache is not None:
            hits = {
                name: h for name in groups[index] if (h := cache.get(key(index, name), options)) is not None
            }
        definitive = [h for h in hits.values() if h.outcome in DEFINITIVE]
        if definitive and not confirm:
            deliver(index, definitive[0])
        elif len(hits) == len(groups[index]):  # every member answered before (undecided, or under confirm)
            answers[index].update(hits)
            settle(index)
        else:
            answers[index].update(hits)
            pending.extend((index, name) for name in groups[index] if name not in hits)

    if options.incremental and not confirm:
        pending = _in_sessions(tasks, groups, pending, options, jobs, versions, answers, settle, stop)

    try:
        while pending or running:
            while pending and len(running) < jobs:
                index, name = pending.popleft()
                if results[index] is not None:
                    continue  # settled by another member
                receiver, sender = ctx.Pipe(duplex=False)
                script = tasks[index].script
                scripts = (script, *tasks[index].alternatives)
                weaker_from = len(scripts)
                scripts += tasks[index].weaker
                process = ctx.Process(target=_worker, args=(sender, name, scripts, options, weaker_from))
                start = time.monotonic()
                first_start.setdefault(index, start)
                process.start()
                sender.close()
                if process.pid is not None:
                    # The worker does it too; whoever comes second may fail harmlessly.
                    with contextlib.suppress(OSError):
                        os.setpgid(process.pid, process.pid)
                deadline = start + options.timeout + GRACE_SECONDS
                running[(index, name)] = _Running(index, name, script, process, receiver, start, deadline)
            if not running:
                continue

            nearest = min(r.deadline for r in running.values())
            waitables: list[Connection | int] = [r.conn for r in running.values()]
            waitables += [r.process.sentinel for r in running.values()]
            patience = max(0.0, nearest - time.monotonic())
            wait(waitables, timeout=patience if stop is None else min(patience, STOP_POLL_SECONDS))
            if stop is not None and stop.is_set():
                raise Stopped("solving stopped on request")  # `finally` kills the workers

            now = time.monotonic()
            for unit in list(running):
                run = running.get(unit)
                if run is None:
                    continue  # killed when a sibling settled the task
                reply = _receive(run, options)
                if reply is not None:
                    member_done(run, reply)
                elif not run.process.is_alive():
                    crash = _crash_message(run.process.exitcode, options)
                    member_done(run, (Outcome.ERROR.value, (), crash, "", 0, ""))
                elif now >= run.deadline:
                    member_done(run, (Outcome.TIMEOUT.value, (), timeout_message(options), "", 0, ""))
    finally:
        for run in list(running.values()):
            _kill(run)
    return [r for r in results if r is not None]


def _in_sessions(
    tasks: Sequence[SolveTask],
    groups: Sequence[Sequence[str]],
    pending: deque[tuple[int, str]],
    options: SolverOptions,
    jobs: int,
    versions: dict[str, str],
    answers: list[dict[str, SolverResult]],
    settle: Callable[[int], None],
    stop: StopFlag | None,
) -> deque[tuple[int, str]]:
    """`--incremental`: the pending tasks that can share a kernel's session solved in sessions
    (`solvers.incremental`); returns what is left for one-shot workers."""
    from hoaregpu.solvers.incremental import run_sessions, session_groups

    waiting = {index for index, _ in pending}
    sessions = session_groups(tasks, lambda i: i in waiting and len(groups[i]) == 1)
    if not sessions:
        return pending

    def deliver(index: int, result: SolverResult) -> None:
        answers[index][result.solver] = result
        settle(index)

    left = set(
        run_sessions(
            tasks,
            sessions,
            options,
            jobs,
            versions.__getitem__,
            deliver,
            _limit_worker,
            stopped=lambda: stop is not None and stop.is_set(),
        )
    )
    if stop is not None and stop.is_set():
        raise Stopped("solving stopped on request")
    in_session = {i for group in sessions for i in group}
    return deque(u for u in pending if u[0] not in in_session or u[0] in left)
