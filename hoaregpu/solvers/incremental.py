"""Running sessions (`solvers.session`) for the dispatcher: which tasks share a session, the
session worker's loop over its VCs, and the parent's watchdog.

A task can join a session when it carries its kernel's prefix (`SolveTask.prefix`), runs on
one backend that offers a session, with no alternative encodings; its kernel's such tasks
form one group, solved in order by one worker process (a job, for `jobs`). The worker
sends each VC's reply as it comes; the parent gives each VC the session's try (`TRY_SECONDS`)
plus grace (plus the model check's time after sat) from the previous reply, and kills the
worker when it overstays: the group's VCs not answered go back to the dispatcher, solved
one-shot, as do those of a worker that reports a session error or dies, and the VCs a
session left undecided.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Any

from hoaregpu.solvers.backend import Answer, Backend
from hoaregpu.solvers.binary import _TAIL, _WHY, classify_output, read_sexprs
from hoaregpu.solvers.modelcheck import ModelVerdict, check_model, check_seconds
from hoaregpu.solvers.options import SolverOptions
from hoaregpu.solvers.outcome import Outcome, SolverResult, SolveTask
from hoaregpu.solvers.registry import get_backend
from hoaregpu.solvers.session import SessionVc, strip_mark, vc_commands

GRACE_SECONDS = 1.0
TRY_SECONDS = 2.0
"""A VC's time in a session. Solving incrementally (after `push`) z3 does without some of
its preprocessing and decides fewer VCs than one-shot, and slower (nested-loop kernels of
`bench/solver_input.py`: refutations one-shot found timed out in the session); so the
session is a first try, and a VC it leaves undecided within this time (or the timeout, if
smaller) is solved one-shot with the whole budget and `--strategies`."""
_VERDICTS = frozenset({"sat", "unsat", "unknown", "timeout"})

# worker → parent: ("answer", index, outcome, values, message, model check, seconds),
# ("checking", index), ("fallback", index): one-shot from this VC on, ("done",).
Message = tuple[Any, ...]


def _trial(options: SolverOptions) -> float:
    return min(options.timeout, TRY_SECONDS)


def session_groups(tasks: Sequence[SolveTask], eligible: Callable[[int], bool]) -> list[list[int]]:
    """The indices of the tasks that share a session, by kernel (the prefix object), in order."""
    groups: dict[int, list[int]] = {}
    for index, task in enumerate(tasks):
        offers = task.prefix and type(get_backend(task.solver)).session is not Backend.session
        if offers and not task.alternatives and eligible(index):
            groups.setdefault(id(task.prefix), []).append(index)
    return list(groups.values())


def _error_before_verdict(output: str) -> bool:
    try:
        items = read_sexprs(output)
    except ValueError:
        return True
    for item in items:
        if isinstance(item, str) and item in _VERDICTS:
            return False
        if isinstance(item, list) and item and item[0] == "error":
            return True
    return True  # no verdict at all: the session is not in a state we understand


def session_worker(
    conn: Connection,
    name: str,
    prefix: str,
    vcs: Sequence[SessionVc],
    options: SolverOptions,
    setup: Callable[[SolverOptions], None],
) -> None:
    """The worker's body: every VC of one kernel in one session, a reply per VC."""
    session = None
    trial = replace(options, timeout=_trial(options))  # each VC's time in the session
    try:
        setup(options)
        backend = get_backend(name)
        read = 0
        for vc in vcs:
            if session is None:
                session = backend.session(trial)
                if session is None:
                    conn.send(("fallback", vc.index))
                    return
                text = backend.session_header(trial) + vc_commands(prefix, 0, vc, _TAIL + _WHY)
            else:
                text = vc_commands(prefix, read, vc, _TAIL + _WHY)
            start = time.monotonic()
            out = session.ask(text, trial.timeout + GRACE_SECONDS / 2)
            seconds = time.monotonic() - start
            if out is None:
                session.close()
                session = None
                if seconds < trial.timeout:  # the solver died: not a timeout of this VC
                    conn.send(("fallback", vc.index))
                    return
                # this VC overstayed: one-shot with the whole budget; the next VC starts a new
                # session (the others keep their answers)
                conn.send(("retry", vc.index))
                continue
            read = vc.end
            answer: Answer = classify_output(strip_mark(out), "", 0, seconds, trial)
            if answer.outcome is Outcome.ERROR or _error_before_verdict(out):
                conn.send(("fallback", vc.index))  # never believed: one-shot from here on
                return
            if answer.outcome not in (Outcome.PROVED, Outcome.REFUTED):
                conn.send(("retry", vc.index))  # undecided within the session's try: one-shot
                continue
            check = ""
            if answer.outcome is Outcome.REFUTED:
                conn.send(("checking", vc.index))
                verdict = check_model(prefix[: vc.end] + vc.body, answer.model, check_seconds(options))
                if verdict.verdict is ModelVerdict.WRONG:
                    message = f"solver {name}'s counterexample does not satisfy the VC ({verdict.note()})"
                    answer = Answer(Outcome.ERROR, message=message + ": a solver bug")
                check = verdict.note()
            conn.send(
                (
                    "answer",
                    vc.index,
                    answer.outcome.value,
                    answer.values,
                    answer.message,
                    check,
                    round(seconds, 3),
                )
            )
        conn.send(("done",))
    except BaseException as exc:  # a crash of the session: the rest one-shot
        with contextlib.suppress(Exception):
            conn.send(("crashed", f"{type(exc).__name__}: {exc}"[:300]))
    finally:
        if session is not None:
            with contextlib.suppress(Exception):
                session.close()
        with contextlib.suppress(Exception):
            conn.close()
        os._exit(0)


@dataclass
class _Group:
    name: str
    order: list[int]
    process: BaseProcess
    conn: Connection
    deadline: float
    answered: set[int] = field(default_factory=set)
    retry: list[int] = field(default_factory=list)  # undecided in the session: one-shot


def run_sessions(
    tasks: Sequence[SolveTask],
    groups: Sequence[list[int]],
    options: SolverOptions,
    jobs: int,
    version: Callable[[str], str],
    deliver: Callable[[int, SolverResult], None],
    setup: Callable[[SolverOptions], None],
    stopped: Callable[[], bool] = lambda: False,
) -> list[int]:
    """Solve the groups in sessions, up to `jobs` at once; `deliver` each answer. Returns the
    indices left for one-shot solving (after a session error or a watchdog kill)."""
    ctx = multiprocessing.get_context("fork")
    waiting = list(groups)
    running: list[_Group] = []
    left_over: list[int] = []

    def limit() -> float:
        return _trial(options) + 2 * GRACE_SECONDS

    def start(order: list[int]) -> None:
        first = tasks[order[0]]
        vcs = [SessionVc(i, tasks[i].prefix_end, tasks[i].body) for i in order]
        receiver, sender = ctx.Pipe(duplex=False)
        process = ctx.Process(
            target=session_worker, args=(sender, first.solver, first.prefix, vcs, options, setup)
        )
        process.start()
        sender.close()
        if process.pid is not None:
            with contextlib.suppress(OSError):
                os.setpgid(process.pid, process.pid)
        running.append(_Group(first.solver, order, process, receiver, time.monotonic() + limit()))

    def finish(group: _Group) -> None:
        if group.process.pid is not None:
            for kill in (os.killpg, os.kill):
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    kill(group.process.pid, signal.SIGKILL)
        group.process.join()
        group.conn.close()
        running.remove(group)
        left_over.extend(group.retry)
        left_over.extend(i for i in group.order if i not in group.answered)

    try:
        while waiting or running:
            while waiting and len(running) < jobs:
                start(waiting.pop(0))
            wait([g.conn for g in running] + [g.process.sentinel for g in running], timeout=0.2)
            if stopped():
                break
            now = time.monotonic()
            for group in list(running):
                done = False
                try:
                    while group.conn.poll():
                        message: Message = group.conn.recv()
                        done = _take(message, group, options, version, deliver)
                        if done:
                            break
                except (EOFError, OSError):
                    done = True
                if done or (not group.process.is_alive() and not group.conn.poll()) or now >= group.deadline:
                    finish(group)  # after a watchdog kill too: the rest one-shot
    finally:
        for group in list(running):
            finish(group)
    return sorted(left_over)


def _take(
    message: Message,
    group: _Group,
    options: SolverOptions,
    version: Callable[[str], str],
    deliver: Callable[[int, SolverResult], None],
) -> bool:
    """Act on one message of a session worker; True when the worker is done with the group."""
    kind = message[0]
    now = time.monotonic()
    if kind == "checking":
        group.deadline = now + check_seconds(options) + 2 * GRACE_SECONDS
        return False
    if kind == "answer":
        _, index, outcome, values, text, check, seconds = message
        group.answered.add(index)
        group.deadline = now + _trial(options) + 2 * GRACE_SECONDS
        result = SolverResult(
            outcome=Outcome(outcome),
            solver=group.name,
            seconds=seconds,
            values=tuple(values) if outcome == Outcome.REFUTED.value else (),
            message=text,
            version=version(group.name),
            model_check=check if outcome == Outcome.REFUTED.value else "",
            configuration="session",
        )
        deliver(index, result)
        return False
    if kind == "retry":
        group.answered.add(index := message[1])
        group.retry.append(index)
        group.deadline = now + _trial(options) + 2 * GRACE_SECONDS
        return False
    return True  # done, fallback, crashed: whatever is not answered goes one-shot
