"""Run solver tasks, each in its own freshly forked worker process.

Why a process per call: z3 is not repeatable inside one process (the same VC took
10 ms to a 10 s timeout), and formulas must not be shared between pySMT environments.
The parent never solves; it forks a worker per task, hands it the SMT-LIB text,
and gets back a small tuple. The parent enforces the wall-clock limit (timeout +
grace, then SIGKILL to the worker's whole process group, which includes any solver
binary it started); the worker caps its own address space with RLIMIT_AS.
Solver misbehaviour of any kind becomes a SolverResult, never an exception.

A portfolio task (see `portfolio`) runs one worker per member; the first definitive
answer settles the task and the other members' workers are killed. `jobs` bounds the
number of workers alive at once, whatever the tasks. With a `ResultCache`, a task whose
answer is cached starts no worker at all.
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

from hoaregpu.errors import ConfigError, SolverError
from hoaregpu.solvers.cache import ResultCache, cache_key
from hoaregpu.solvers.options import SolverOptions
from hoaregpu.solvers.outcome import Outcome, SolverResult, SolveTask, Value
from hoaregpu.solvers.portfolio import DEFINITIVE, combine, members
from hoaregpu.solvers.registry import Backend, get_backend, memory_message, timeout_message

GRACE_SECONDS = 1.0
"""How long past the timeout the parent waits before killing a worker."""

AGREE_WINDOW = 0.02
"""After a portfolio member's definitive answer, the other members still running get up to
this long (and at most a tenth of the winner's time) to answer too before they are
killed, so that a near-simultaneous contradicting answer is seen as a disagreement."""

_Reply = tuple[str, tuple[Value, ...], str]


def _worker(conn: Connection, name: str, script: str, options: SolverOptions) -> None:
    """Body of a worker process: solve one script, send (outcome, values, message), exit."""
    reply: _Reply
    try:
        os.setpgid(0, 0)
        faulthandler.disable()  # a crashing solver is reported as ERROR, without a Python dump
        if options.memory_mb is not None:
            limit = options.memory_mb * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        answer = get_backend(name).solve(script, options)
        reply = (answer.outcome.value, answer.values, answer.message)
    except MemoryError:
        reply = (Outcome.ERROR.value, (), memory_message(options))
    except BaseException as exc:
        text = f"{type(exc).__name__}: {exc}"
        if "bad_alloc" in text or "out of memory" in text.lower():
            reply = (Outcome.ERROR.value, (), memory_message(options))
        else:
            reply = (Outcome.ERROR.value, (), f"solver crashed: {text}"[:1000])
    try:
        conn.send(reply)
        conn.close()
    finally:
        os._exit(0)


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


def _receive(run: _Running) -> _Reply | None:
    """The worker's reply if it has sent one (without blocking)."""
    try:
        if run.conn.poll():
            reply: _Reply = run.conn.recv()
            return reply
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
) -> list[SolverResult]:
    """Solve every task, up to `jobs` worker processes at a time; results come in task order.

    `cache`: look definitive answers up before starting workers, and store new ones.
    `on_result(index, result)` is called as each task is settled (in completion order).
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
        return cache_key(tasks[index].script, identities[name], versions[name], options)

    def deliver(index: int, result: SolverResult) -> None:
        results[index] = result
        if on_result is not None:
            on_result(index, result)

    def settle(index: int) -> None:
        for unit in [u for u in running if u[0] == index]:
            _kill(running.pop(unit))
        got = answers[index]
        if len(groups[index]) == 1:
            result = got[groups[index][0]]
        else:
            result = combine(tasks[index].solver, got, round(time.monotonic() - first_start[index], 3))
        if cache is not None and result.outcome in DEFINITIVE:
            for name, r in got.items():
                if r.outcome is result.outcome:
                    cache.put(key(index, name), r)
        deliver(index, result)

    def record(run: _Running, outcome: Outcome, values: tuple[Value, ...], message: str) -> None:
        answers[run.index][run.name] = SolverResult(
            outcome=outcome,
            solver=run.name,
            seconds=round(time.monotonic() - run.start, 3),
            values=values if outcome is Outcome.REFUTED else (),
            message=message,
            version=versions[run.name],
        )

    def member_done(run: _Running, outcome: Outcome, values: tuple[Value, ...], message: str) -> None:
        _kill(run)
        del running[(run.index, run.name)]
        record(run, outcome, values, message)
        siblings = [r for u, r in running.items() if u[0] == run.index]
        if outcome in DEFINITIVE:
            # Members that have answered too count, so that a disagreement is seen.
            window = min(AGREE_WINDOW, 0.1 * (time.monotonic() - run.start))
            if siblings and window > 0:
                wait([sib.conn for sib in siblings], timeout=window)
            for sib in siblings:
                reply = _receive(sib)
                if reply is not None:
                    record(sib, Outcome(reply[0]), tuple(reply[1]), reply[2])
            settle(run.index)
        elif not siblings and not any(u[0] == run.index for u in pending):
            settle(run.index)

    for index in range(len(tasks)):
        hit = None
        if cache is not None:
            hit = next((h for name in groups[index] if (h := cache.get(key(index, name)))), None)
        if hit is not None:
            deliver(index, hit)
        else:
            pending.extend((index, name) for name in groups[index])

    try:
        while pending or running:
            while pending and len(running) < jobs:
                index, name = pending.popleft()
                if results[index] is not None:
                    continue  # settled by another member
                receiver, sender = ctx.Pipe(duplex=False)
                script = tasks[index].script
                process = ctx.Process(target=_worker, args=(sender, name, script, options))
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
            wait(waitables, timeout=max(0.0, nearest - time.monotonic()))

            now = time.monotonic()
            for unit in list(running):
                run = running.get(unit)
                if run is None:
                    continue  # killed when a sibling settled the task
                reply = _receive(run)
                if reply is not None:
                    outcome, values, message = reply
                    member_done(run, Outcome(outcome), tuple(values), message)
                elif not run.process.is_alive():
                    member_done(run, Outcome.ERROR, (), _crash_message(run.process.exitcode, options))
                elif now >= run.deadline:
                    member_done(run, Outcome.TIMEOUT, (), timeout_message(options))
    finally:
        for run in list(running.values()):
            _kill(run)
    return [r for r in results if r is not None]
