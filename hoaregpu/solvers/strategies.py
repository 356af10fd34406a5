"""Several configurations (strategies) of one solver on one VC, in parallel (issue 14, item 2).

Which configuration of a solver decides a VC fastest depends on the VC: z3's macro finder
eliminates the universal definitions of our VCs (H-ASSIGN's x', H-IF's z) and then refutes
barrier and assertion VCs in milliseconds that plain z3 runs to the timeout on, while it
slows other valid VCs from 20 ms to a timeout (and the tree reduction at 1,024 threads with
its sum written out proves in 2 s with it and not at all without). Run one after the other,
each configuration gets a share of the budget, and a VC that only the second one decides
pays the first one's share.

So the backend hands `solve_strategies` its configurations and a function that runs one
of them; with `SolverOptions.strategies` N > 1, the first configuration tries alone for
`QUICK_SECONDS` or a work limit of the backend's (in the worker: no fork), and if that
does not decide the VC the first N run at once, each in a forked child with the whole
budget that is left (wall clock shared, not split); when one ends undecided, the next
waiting configuration takes its place. The first definitive answer wins and the other
children are killed. With N = 1 the configurations run in sequence on the backend's
`sequence` of budget shares (the behaviour before the portfolio).

What counts: a proof or a refutation of any configuration is the VC's (they are the same
solver on the same script; a refutation's model is still checked against the VC by the
dispatcher's worker). A child that crashes or fails is an ERROR of that configuration,
never a proof; when no configuration decides the VC, an error is reported before an
undecided answer, and TIMEOUT/UNKNOWN stay undecided. Two configurations answering PROVED
and REFUTED at the same moment are a disagreement, an ERROR.

The children share the worker's process group, so the dispatcher's kill at the deadline
reaches them too. Each child has the worker's address-space cap of its own (RLIMIT_AS is
per process): N configurations may use up to N times `--memory`.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Protocol

from hoaregpu.solvers.backend import Answer, timeout_message
from hoaregpu.solvers.options import SolverOptions
from hoaregpu.solvers.outcome import Outcome


class RunConfiguration(Protocol):
    """Run the named configuration on the (already parsed) VC with these options' timeout;
    `quick`: the quick try, which the backend bounds by work (a resource limit) as well, so
    that what it leaves behind for the configurations forked after it does not depend on the
    clock."""

    def __call__(self, configuration: str, options: SolverOptions, /, quick: bool = False) -> Answer: ...


_DEFINITIVE = (Outcome.PROVED, Outcome.REFUTED)
MIN_SECONDS = 0.05
"""A configuration is not started with less time than this left."""
QUICK_SECONDS = 1.0
"""The first configuration first tries alone, in the worker itself, for at most this long
(a guard: the backend's work limit ends it sooner, ~0.1 s for z3): most VCs are decided
within it (valid ones in ~20 ms, macro-finder refutations in ~10 ms), and then no
child is forked and no second solver competes for the CPU (measured on trivial VCs under
load: +0.1 s each when both configurations were forked at once)."""
AGREE_WINDOW = 0.02
"""After a definitive answer, how long the other configurations still running may take to
answer too (at most a tenth of the winner's time) before they are killed."""


@dataclass(frozen=True)
class Strategies:
    """A backend's configurations: `parallel` in order of preference (the first N run at once),
    `sequence` the schedule for N = 1: (configuration, cumulative end of its budget share)."""

    parallel: tuple[str, ...]
    sequence: tuple[tuple[str, float], ...]


def solve_strategies(strategies: Strategies, run: RunConfiguration, options: SolverOptions) -> Answer:
    """The VC's answer from the backend's configurations (see the module doc); the answer's
    `configuration` names the one that gave it."""
    if options.strategies <= 1 or len(strategies.parallel) <= 1:
        return _in_sequence(strategies, run, options)
    start = time.monotonic()
    if options.timeout > 2 * QUICK_SECONDS:
        first = strategies.parallel[0]
        answer = replace(run(first, replace(options, timeout=QUICK_SECONDS), quick=True), configuration=first)
        if answer.outcome in _DEFINITIVE or answer.outcome is Outcome.ERROR:
            return answer
    left = replace(options, timeout=options.timeout - (time.monotonic() - start))
    answer = _in_parallel(strategies.parallel, run, left)
    if answer.outcome is Outcome.TIMEOUT:  # the VC's time limit, not what was left of it
        return replace(answer, message=timeout_message(options))
    return answer


def _in_sequence(strategies: Strategies, run: RunConfiguration, options: SolverOptions) -> Answer:
    start = time.monotonic()
    answers: list[Answer] = []
    steps = strategies.sequence or tuple((name, 1.0) for name in strategies.parallel[:1])
    for name, share in steps:
        left = options.timeout * share - (time.monotonic() - start)
        if left <= MIN_SECONDS:
            continue
        answer = replace(run(name, replace(options, timeout=left)), configuration=name)
        if answer.outcome in _DEFINITIVE or answer.outcome is Outcome.ERROR:
            return answer  # an error (memory) ends the sequence, as it would end the solver
        answers.append(answer)
    return _undecided(answers, time.monotonic() - start, options)


def _undecided(answers: Sequence[Answer], seconds: float, options: SolverOptions) -> Answer:
    """No configuration decided the VC: an error first, then TIMEOUT if the budget was used."""
    errors = [a for a in answers if a.outcome is Outcome.ERROR]
    if errors:
        return errors[0]
    if seconds >= 0.95 * options.timeout or any(a.outcome is Outcome.TIMEOUT for a in answers):
        return Answer(Outcome.TIMEOUT, message=timeout_message(options))
    unknown = [a for a in answers if a.outcome is Outcome.UNKNOWN]
    if unknown:
        return unknown[-1]
    return Answer(Outcome.TIMEOUT, message=timeout_message(options))  # none was started in time


def _child(conn: Connection, run: RunConfiguration, name: str, options: SolverOptions) -> None:
    try:
        answer = run(name, options)
    except BaseException as exc:  # reported as this configuration's error, never a proof
        answer = Answer(Outcome.ERROR, message=f"solver crashed: {type(exc).__name__}: {exc}"[:1000])
    try:
        conn.send(replace(answer, configuration=name))
        conn.close()
    finally:
        os._exit(0)


def _in_parallel(names: Sequence[str], run: RunConfiguration, options: SolverOptions) -> Answer:
    ctx = multiprocessing.get_context("fork")
    start = time.monotonic()
    waiting = list(names)
    children: dict[Connection, tuple[str, BaseProcess]] = {}
    answers: list[Answer] = []

    def spawn() -> None:
        while waiting and len(children) < options.strategies:
            name = waiting.pop(0)
            left = options.timeout - (time.monotonic() - start)
            if left <= MIN_SECONDS:
                waiting.clear()
                return
            receiver, sender = ctx.Pipe(duplex=False)
            budget = replace(options, timeout=left)
            child: BaseProcess = ctx.Process(target=_child, args=(sender, run, name, budget))
            child.start()
            sender.close()
            children[receiver] = (name, child)

    try:
        spawn()
        while children:
            # Each child's solver has its own time limit; this only guards a hung child.
            patience = max(0.0, start + options.timeout + 1.0 - time.monotonic())
            ready = wait(list(children), timeout=patience)
            if not ready:
                answers.append(Answer(Outcome.TIMEOUT, message=timeout_message(options)))
                break
            for conn in [c for c in children if c in ready]:
                name, process = children.pop(conn)
                try:
                    answer: Answer = conn.recv()
                    answers.append(answer)
                except (EOFError, OSError):
                    process.join(1.0)
                    answers.append(
                        Answer(
                            Outcome.ERROR,
                            message=f"solver crashed (configuration {name}, exit status {process.exitcode})",
                            configuration=name,
                        )
                    )
                conn.close()
            if any(a.outcome in _DEFINITIVE for a in answers):
                # The others get a moment to answer too, so that a near-simultaneous
                # contradicting answer is seen as a disagreement.
                window = min(AGREE_WINDOW, 0.1 * (time.monotonic() - start))
                late = wait(list(children), timeout=window) if children and window > 0 else []
                for conn in [c for c in children if c in late]:  # reaped below with the rest
                    with contextlib.suppress(EOFError, OSError):
                        answers.append(conn.recv())
                break
            spawn()
    finally:
        for conn, (_, process) in children.items():
            if process.pid is not None:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(process.pid, signal.SIGKILL)
            process.join()
            conn.close()
    return settle(answers, time.monotonic() - start, options)


def settle(answers: Sequence[Answer], seconds: float, options: SolverOptions) -> Answer:
    """The VC's answer from its configurations' answers (in the order they came)."""
    proved = [a for a in answers if a.outcome is Outcome.PROVED]
    refuted = [a for a in answers if a.outcome is Outcome.REFUTED]
    if proved and refuted:
        return Answer(
            Outcome.ERROR,
            message=f"configurations disagree: {proved[0].configuration} proved the VC valid, "
            f"{refuted[0].configuration} refuted it (a solver bug)",
        )
    for answer in (*refuted, *proved):
        return answer
    return _undecided(answers, seconds, options)
