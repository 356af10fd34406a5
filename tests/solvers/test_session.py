"""Incremental sessions (`--incremental`, `solvers.session`, `solvers.incremental`): a kernel's
VCs in one solver that reads the shared prefix once, with the same verdicts and limits per VC;
a VC's timeout loses no other answer; session errors fall back to one-shot solving."""

from __future__ import annotations

import os
import shutil
import time

import pytest

from hoaregpu.solvers import Outcome, SolverOptions, SolveTask, solve_many
from hoaregpu.solvers.backend import Answer, Backend
from hoaregpu.solvers.registry import register_backend
from hoaregpu.solvers.session import MARK, Session, SessionVc, strip_mark, vc_commands

PREFIX = (
    "(set-option :produce-models true)\n(set-logic ALL)\n(declare-fun x () Int)\n"
    "(define-fun hg@p0 () Bool (> x 0))\n(declare-fun y () Int)\n"
    "(define-fun hg@p1 () Bool (and hg@p0 (= y (+ x 1))))\n"
)
BODIES = (  # proved, refuted, proved, refuted
    "(assert hg@p0)\n(assert (not (> x (- 1))))\n(check-sat)\n(get-value (x))\n",
    "(assert hg@p0)\n(assert (not (> x 1)))\n(check-sat)\n(get-value (x))\n",
    "(assert hg@p1)\n(assert (not (> y 1)))\n(check-sat)\n(get-value (x y))\n",
    "(assert hg@p1)\n(assert (not (> y 2)))\n(check-sat)\n(get-value (x y))\n",
)
ENDS = (PREFIX.index("(declare-fun y"), PREFIX.index("(declare-fun y"), len(PREFIX), len(PREFIX))
EXPECTED = [Outcome.PROVED, Outcome.REFUTED, Outcome.PROVED, Outcome.REFUTED]


def kernel_tasks(solver: str, bodies: tuple[str, ...] = BODIES) -> list[SolveTask]:
    prefix = "".join(PREFIX)  # one object shared by the tasks: one kernel
    return [
        SolveTask(prefix[:end] + body, solver, prefix=prefix, prefix_end=end, body=body)
        for end, body in zip(ENDS, bodies, strict=True)
    ]


INCREMENTAL = SolverOptions(timeout=5.0, memory_mb=None, incremental=True)


def test_the_session_reads_the_prefix_once() -> None:
    read = 0
    texts = []
    for i, (end, body) in enumerate(zip(ENDS, BODIES, strict=True)):
        texts.append(vc_commands(PREFIX, read, SessionVc(i, end, body), "(get-model)\n"))
        read = end
    joined = "".join(texts)
    assert joined.count("(declare-fun x") == 1 and joined.count("(define-fun hg@p1") == 1
    assert joined.count("(push 1)") == joined.count("(pop 1)") == joined.count(MARK) == 4
    assert strip_mark(f'unsat\n"{MARK}"\n') == "unsat\n" and strip_mark(f"sat\n{MARK}\n") == "sat\n"


@pytest.mark.parametrize("solver", ["z3", "z3-bin", "cvc5-bin"])
def test_a_session_gives_the_one_shot_verdicts(solver: str) -> None:
    if solver.endswith("-bin") and shutil.which(solver[:-4]) is None:
        pytest.skip(f"{solver[:-4]} is not on PATH")
    results = solve_many(kernel_tasks(solver), INCREMENTAL)
    assert [r.outcome for r in results] == EXPECTED
    assert all(r.configuration == "session" for r in results)
    refuted = results[1]
    assert refuted.model_checked and refuted.values == (1,)
    one_shot = solve_many(kernel_tasks(solver), SolverOptions(timeout=5.0, memory_mb=None))
    assert [r.outcome for r in one_shot] == EXPECTED and all(r.configuration != "session" for r in one_shot)


class FakeSession(Session):
    """Answers from the body: `slow` overstays (the session is then unusable), `hang` ignores
    its time limit, `broken` prints an error before its verdict, `die` ends the process."""

    def __init__(self) -> None:
        self.started = time.monotonic()

    def ask(self, text: str, seconds: float) -> str | None:
        if "slow" in text:
            time.sleep(seconds)
            return None
        if "hang" in text:
            time.sleep(60)
        if "broken" in text:
            return '(error "an assertion was not taken")\nunsat\n'
        if "die" in text:
            os._exit(7)
        if "; unknown" in text:
            return "unknown\n"
        return "unsat\n" if "valid" in text else "sat\n()\n()\n"

    def close(self) -> None:
        pass


class FakeBackend(Backend):
    """One-shot answers are UNKNOWN with a message naming them: fallbacks are visible."""

    name = "test-session"

    def version(self) -> str | None:
        return "0"

    def unavailable(self) -> str | None:
        return None

    def solve(self, script: str, options: SolverOptions) -> Answer:
        return Answer(Outcome.UNKNOWN, message="one-shot")

    def session(self, options: SolverOptions) -> Session | None:
        return FakeSession()


register_backend("test-session", FakeBackend)


def _bodies(*words: str) -> tuple[str, ...]:
    return tuple(f"(check-sat) ; {w}\n" for w in words)


def test_a_timeout_in_a_session_loses_no_other_vc() -> None:
    options = SolverOptions(timeout=1.0, memory_mb=None, incremental=True)
    results = solve_many(kernel_tasks("test-session", _bodies("valid", "slow", "valid", "valid")), options)
    assert [r.outcome for r in results] == [Outcome.PROVED, Outcome.UNKNOWN, Outcome.PROVED, Outcome.PROVED]
    assert results[1].message == "one-shot"  # the VC that overstayed is tried one-shot
    assert [r.configuration for r in results] == ["session", "", "session", "session"]  # a new session


def test_an_undecided_vc_in_a_session_is_tried_one_shot() -> None:
    results = solve_many(kernel_tasks("test-session", _bodies("valid", "unknown", "valid", "x")), INCREMENTAL)
    assert [r.outcome for r in results] == [Outcome.PROVED, Outcome.UNKNOWN, Outcome.PROVED, Outcome.REFUTED]
    assert results[1].message == "one-shot" and results[3].configuration == "session"


def test_a_hung_session_is_killed_and_the_rest_solved_one_shot() -> None:
    options = SolverOptions(timeout=1.0, memory_mb=None, incremental=True)
    start = time.monotonic()
    results = solve_many(kernel_tasks("test-session", _bodies("valid", "hang", "valid", "valid")), options)
    assert time.monotonic() - start < 30
    assert results[0].outcome is Outcome.PROVED and results[0].configuration == "session"
    assert [r.message for r in results[1:]] == ["one-shot"] * 3  # the hung VC too


@pytest.mark.parametrize("fault", ["broken", "die"])
def test_a_session_error_is_never_believed_and_falls_back(fault: str) -> None:
    results = solve_many(kernel_tasks("test-session", _bodies("valid", fault, "valid", "valid")), INCREMENTAL)
    assert results[0].outcome is Outcome.PROVED and results[0].configuration == "session"
    assert [r.message for r in results[1:]] == ["one-shot"] * 3  # never the `unsat` after an error


def test_without_incremental_no_session_is_started() -> None:
    tasks = kernel_tasks("test-session", _bodies("valid", "valid", "valid", "valid"))
    assert all(r.outcome is Outcome.PROVED for r in solve_many(tasks, INCREMENTAL))
    plain = SolverOptions(timeout=5.0, memory_mb=None)
    assert all(r.message == "one-shot" for r in solve_many(tasks, plain))
