"""Run solver tasks, each in its own freshly forked worker process.

Why a process per call: z3 is not repeatable inside one process (the same VC took
10 ms to a 10 s timeout), and formulas must not be shared between pySMT environments.
The parent never solves; it forks a worker per task, hands it the SMT-LIB text,
and gets back a small tuple. The parent enforces the wall-clock limit (timeout +
grace, then SIGKILL to the worker's whole process group, which includes any solver
binary it started); the worker caps its own address space with RLIMIT_AS.
Solver misbehaviour of any kind becomes a SolverResult, never an exception.
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
from collections.abc import Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess

from hoaregpu.errors import ConfigError, SolverError
from hoaregpu.solvers.options import SolverOptions
from hoaregpu.solvers.outcome import Outcome, SolverResult, SolveTask, Value
from hoaregpu.solvers.registry import Backend, get_backend, memory_message, timeout_message

GRACE_SECONDS = 1.0
"""How long past the timeout the parent waits before killing a worker."""

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
    index: int
    task: SolveTask
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


def _check_backends(tasks: Sequence[SolveTask]) -> dict[str, str]:
    """Resolve every backend once (ConfigError for an unknown name, SolverError if it cannot
    run here) and return their versions."""
    versions: dict[str, str] = {}
    for name in sorted({t.solver for t in tasks}):
        backend: Backend = get_backend(name)
        reason = backend.unavailable()
        if reason is not None:
            raise SolverError(f"solver {name!r} is not available: {reason}")
        try:
            versions[name] = backend.version() or ""
        except Exception:
            versions[name] = ""
    return versions


def solve_many(tasks: Sequence[SolveTask], options: SolverOptions, jobs: int = 1) -> list[SolverResult]:
    """Solve every task, up to `jobs` at a time; results come in task order.

    Raises ConfigError for an unknown solver name or bad `jobs`, SolverError for a
    backend that cannot run on this machine; everything that goes wrong while solving
    (timeouts, memory, crashes) is reported in the results.
    """
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ConfigError(f"jobs must be a positive integer, not {jobs!r}")
    versions = _check_backends(tasks)
    ctx = multiprocessing.get_context("fork")
    results: list[SolverResult | None] = [None] * len(tasks)
    pending = deque(enumerate(tasks))
    running: dict[int, _Running] = {}

    def finish(run: _Running, outcome: Outcome, values: tuple[Value, ...], message: str) -> None:
        seconds = time.monotonic() - run.start
        results[run.index] = SolverResult(
            outcome=outcome,
            solver=run.task.solver,
            seconds=round(seconds, 3),
            values=values if outcome is Outcome.REFUTED else (),
            message=message,
            version=versions[run.task.solver],
        )
        del running[run.index]

    try:
        while pending or running:
            while pending and len(running) < jobs:
                index, task = pending.popleft()
                receiver, sender = ctx.Pipe(duplex=False)
                process = ctx.Process(target=_worker, args=(sender, task.solver, task.script, options))
                start = time.monotonic()
                process.start()
                sender.close()
                if process.pid is not None:
                    # The worker does it too; whoever comes second may fail harmlessly.
                    with contextlib.suppress(OSError):
                        os.setpgid(process.pid, process.pid)
                deadline = start + options.timeout + GRACE_SECONDS
                running[index] = _Running(index, task, process, receiver, start, deadline)

            nearest = min(r.deadline for r in running.values())
            waitables: list[Connection | int] = [r.conn for r in running.values()]
            waitables += [r.process.sentinel for r in running.values()]
            wait(waitables, timeout=max(0.0, nearest - time.monotonic()))

            now = time.monotonic()
            for run in list(running.values()):
                reply: _Reply | None = None
                if run.conn.poll():
                    try:
                        reply = run.conn.recv()
                    except (EOFError, OSError):
                        reply = None
                    if reply is not None:
                        _kill(run)
                        outcome, values, message = reply
                        finish(run, Outcome(outcome), tuple(values), message)
                        continue
                if not run.process.is_alive() and reply is None:
                    _kill(run)
                    finish(run, Outcome.ERROR, (), _crash_message(run.process.exitcode, options))
                elif now >= run.deadline:
                    _kill(run)
                    finish(run, Outcome.TIMEOUT, (), timeout_message(options))
    finally:
        for run in list(running.values()):
            _kill(run)
    return [r for r in results if r is not None]
