"""Equivalent encodings of one VC raced inside one worker (`SolveTask.alternatives`).

With a fixed thread count, a VC can be written with its thread quantifiers expanded or
kept (`smt.thread_encoding`); which one a solver decides fastest depends on the VC (from 16
threads on, a grid-stride loop's invariant proves in 50 ms kept and times out expanded,
while some 2-D grid and bit-operator VCs do the reverse). The worker forks one child per
encoding, all running the same backend (the alternatives only when the first script is
undecided after `STAGGER_SECONDS`); the first definitive answer
settles the VC and the other children are killed. Since the encodings are equivalent, any one's proof or
(model-checked) refutation is the VC's; two children that answer PROVED and REFUTED are a
disagreement, an ERROR, never resolved silently.

A task's *weaker* scripts (`SolveTask.weaker`: slices of the VC, `vc.slicing`) start
first, and the VC's own scripts after `STAGGER_SECONDS` or as soon as the slice is done:
only a slice's proof counts (a VC whose slice is valid is valid), while its countermodel
may violate a hypothesis the slice left out, so its refutation is taken as UNKNOWN and
the race goes on.

The children share the worker's process group, so the dispatcher's kill at the deadline
reaches them (and any solver binary they started) too; they count as one worker for `jobs`.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import time
from collections.abc import Sequence
from dataclasses import replace
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess

from hoaregpu.solvers.backend import Answer, Backend
from hoaregpu.solvers.options import SolverOptions
from hoaregpu.solvers.outcome import Outcome

_DEFINITIVE = (Outcome.PROVED, Outcome.REFUTED)
_UNDECIDED_RANK = {Outcome.UNKNOWN: 0, Outcome.TIMEOUT: 1, Outcome.ERROR: 2}


STAGGER_SECONDS = 0.25
"""The alternatives start only when the first script is still undecided after this long: most
VCs are decided within it, and then no second process is started at all."""
# (The alternatives run at the worker's priority: at `nice 10` on a machine loaded ~15 deep,
# the kept quantifiers took 5-9 s to prove what they prove in 1 s at `nice 0`.)


def _child(conn: Connection, backend: Backend, script: str, options: SolverOptions) -> None:
    try:
        answer = backend.solve(script, options)
    except BaseException as exc:  # reported like a crash in the worker itself
        answer = Answer(Outcome.ERROR, message=f"solver crashed: {type(exc).__name__}: {exc}"[:1000])
    try:
        conn.send(answer)
        conn.close()
    finally:
        os._exit(0)


WEAKER_REFUTED = (
    "a slice of the VC has a countermodel, which may violate a hypothesis it left out (or, for a "
    "race check, be a write of the same value, which is no race)"
)


def race(
    backend: Backend, scripts: Sequence[str], options: SolverOptions, weaker_from: int | None = None
) -> tuple[int, Answer]:
    """The answer for the VC and the index of the script that gave it; the scripts from
    `weaker_from` on are weaker than the VC (module doc)."""
    weaker = len(scripts) if weaker_from is None else weaker_from
    if len(scripts) == 1:
        return 0, backend.solve(scripts[0], options)
    ctx = multiprocessing.get_context("fork")
    children: dict[Connection, tuple[int, BaseProcess]] = {}
    start = time.monotonic()

    def spawn(index: int) -> None:
        receiver, sender = ctx.Pipe(duplex=False)
        left = options.timeout - (time.monotonic() - start)  # the budget is the VC's, not each script's
        budget = replace(options, timeout=max(0.1, left))
        child: BaseProcess = ctx.Process(target=_child, args=(sender, backend, scripts[index], budget))
        child.start()
        sender.close()
        children[receiver] = (index, child)

    # a slice first, alone while it is quick: its proof spares the solver reading the VC's
    # whole path; then the VC and its encodings (at once if the slice is done)
    order = [*range(weaker, len(scripts)), *range(weaker)]
    spawn(order[0])
    waiting = order[1:]  # not started yet
    answers: dict[int, Answer] = {}
    try:
        while children or waiting:
            patience = max(0.0, start + STAGGER_SECONDS - time.monotonic()) if waiting else None
            ready = wait(list(children), timeout=patience) if children else []
            for conn in [c for c in children if c in ready]:
                index, process = children.pop(conn)
                try:
                    answer: Answer = conn.recv()
                    if index >= weaker and answer.outcome is Outcome.REFUTED:
                        answer = Answer(Outcome.UNKNOWN, message=WEAKER_REFUTED)
                    answers[index] = answer
                except (EOFError, OSError):
                    code = process.exitcode
                    answers[index] = Answer(Outcome.ERROR, message=f"solver crashed (exit status {code})")
                conn.close()
            if any(a.outcome in _DEFINITIVE for a in answers.values()):
                break
            if waiting and (time.monotonic() >= start + STAGGER_SECONDS or not children):
                for index in waiting:
                    spawn(index)
                waiting = []
    finally:
        for _, left in children.values():
            if left.pid is not None:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(left.pid, signal.SIGKILL)
            left.join()
    # undecided, the VC's own answers say more than its slices' (a timeout stays a timeout)
    own = {i: a for i, a in answers.items() if i < weaker or a.outcome is Outcome.PROVED}
    return settle(own or answers)


def settle(answers: dict[int, Answer]) -> tuple[int, Answer]:
    """One answer from the encodings' answers (by script index)."""
    proved = [i for i, a in answers.items() if a.outcome is Outcome.PROVED]
    refuted = [i for i, a in answers.items() if a.outcome is Outcome.REFUTED]
    if proved and refuted:
        message = (
            f"encodings disagree: script {proved[0]} proved the VC valid, script {refuted[0]} refuted "
            "it (a solver bug or an unsound encoding)"
        )
        return proved[0], Answer(Outcome.ERROR, message=message)
    for i in (*refuted, *proved):
        return i, answers[i]
    best = min(answers, key=lambda i: (_UNDECIDED_RANK.get(answers[i].outcome, 3), i))
    return best, answers[best]
