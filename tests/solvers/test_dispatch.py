"""Worker isolation: timeouts, memory cap, crashes, ordering with jobs=2."""

from __future__ import annotations

import mmap
import os
import signal
import time

import pytest
from pysmt.environment import reset_env
from pysmt.shortcuts import GT, And, Equals, Int, Not, Plus, Symbol, Times
from pysmt.typing import INT

from hoaregpu.errors import ConfigError
from hoaregpu.smt import script_text
from hoaregpu.solvers import Outcome, SolverOptions, SolveTask, solve_many
from hoaregpu.solvers.backend import Answer, Backend
from hoaregpu.solvers.options import SolverOptions as _Opts
from hoaregpu.solvers.outcome import Value
from hoaregpu.solvers.registry import register_backend


class ScriptedBackend(Backend):
    """Test-only: the 'script' is a command saying how to misbehave."""

    name = "test-scripted"

    def version(self) -> str | None:
        return "0"

    def unavailable(self) -> str | None:
        return None

    def solve(self, script: str, options: _Opts) -> Answer:
        word, *rest = script.split()
        if word == "sleep":
            time.sleep(float(rest[0]))
            return Answer(Outcome.PROVED)
        if word == "refuted":
            values: tuple[Value, ...] = tuple(int(v) for v in rest)
            return Answer(Outcome.REFUTED, values)
        if word == "unknown":
            return Answer(Outcome.UNKNOWN, message="scripted unknown")
        if word == "raise":
            raise RuntimeError("scripted failure")
        if word == "exit":
            os._exit(3)
        if word == "segv":
            os.kill(os.getpid(), signal.SIGSEGV)
        if word == "hog":
            hog = [bytearray(64 * 1024 * 1024) for _ in range(200)]  # 12.5 GB, far past any cap here
            return Answer(Outcome.PROVED, message=str(len(hog)))
        return Answer(Outcome.PROVED)


register_backend("test-scripted", ScriptedBackend)
FAST = SolverOptions(timeout=1.0, memory_mb=None)


def scripted(*scripts: str) -> list[SolveTask]:
    return [SolveTask(s, "test-scripted") for s in scripts]


def hard_script() -> str:
    """x³ + y³ = z³ over positive integers: neither z3 nor cvc5 settles it quickly."""
    reset_env()
    x, y, z = (Symbol(n, INT) for n in "xyz")

    def cube(v: object) -> object:
        return Times(v, v, v)

    f = And(GT(x, Int(0)), GT(y, Int(0)), GT(z, Int(0)), Equals(Plus(cube(x), cube(y)), cube(z)))
    return script_text(f, [x])


def easy_script() -> str:
    reset_env()
    x = Symbol("x", INT)
    return script_text(Not(Equals(Plus(x, Int(1)), Plus(Int(1), x))))


@pytest.mark.parametrize("solver", ["z3", "cvc5"])
def test_hard_vc_times_out_and_next_task_runs(solver: str) -> None:
    start = time.monotonic()
    hard, easy = solve_many([SolveTask(hard_script(), solver), SolveTask(easy_script(), solver)], FAST)
    assert hard.outcome in (Outcome.TIMEOUT, Outcome.UNKNOWN), hard
    assert hard.seconds < FAST.timeout + 2.0
    if hard.outcome is Outcome.TIMEOUT:
        assert hard.message == "timeout after 1.0 s"
    assert easy.outcome is Outcome.PROVED
    assert time.monotonic() - start < 2 * FAST.timeout + 3.0


def test_hanging_worker_is_killed_at_timeout_plus_grace() -> None:
    start = time.monotonic()
    hung, after = solve_many(scripted("sleep 60", "proved"), FAST)
    assert hung.outcome is Outcome.TIMEOUT and hung.message == "timeout after 1.0 s"
    assert FAST.timeout <= hung.seconds < FAST.timeout + 2.0
    assert after.outcome is Outcome.PROVED
    assert time.monotonic() - start < FAST.timeout + 3.0


def test_memory_cap_gives_error_mentioning_memory() -> None:
    hog, after = solve_many(scripted("hog", "proved"), SolverOptions(timeout=5.0, memory_mb=512))
    assert hog.outcome is Outcome.ERROR, hog
    assert "memory" in hog.message and "512 MB" in hog.message
    assert after.outcome is Outcome.PROVED


def test_memory_cap_counts_from_what_the_worker_inherits() -> None:
    # a fork shares the parent's address space: a parent already larger than the cap (a long
    # test run, the language server) must still get answers from z3, which starts threads
    x = Symbol("x", INT)
    script = script_text(Not(GT(Plus(x, Int(1)), x)))
    reserved = mmap.mmap(-1, 1 << 30)  # 1 GB of address space in this process, untouched
    try:
        (res,) = solve_many([SolveTask(script, "z3")], SolverOptions(timeout=10.0, memory_mb=256))
    finally:
        reserved.close()
    assert res.outcome is Outcome.PROVED, res


@pytest.mark.parametrize(
    ("script", "fragment"),
    [
        ("raise", "solver crashed: RuntimeError: scripted failure"),
        ("exit", "solver crashed: exited with status 3"),
        ("segv", "solver crashed: killed by signal SIGSEGV"),
    ],
)
def test_crashing_worker_gives_error(script: str, fragment: str) -> None:
    crashed, after = solve_many(scripted(script, "proved"), FAST)
    assert crashed.outcome is Outcome.ERROR
    assert crashed.message.startswith(fragment), crashed.message
    assert crashed.values == ()
    assert after.outcome is Outcome.PROVED


def test_jobs_two_keeps_task_order() -> None:
    scripts = ["sleep 0.6", "refuted 1 -2", "raise", "sleep 0.1", "unknown", "refuted 7"]
    start = time.monotonic()
    results = solve_many(scripted(*scripts), FAST, jobs=2)
    elapsed = time.monotonic() - start
    assert [r.outcome for r in results] == [
        Outcome.PROVED,
        Outcome.REFUTED,
        Outcome.ERROR,
        Outcome.PROVED,
        Outcome.UNKNOWN,
        Outcome.REFUTED,
    ]
    assert results[1].values == (1, -2) and results[5].values == (7,)
    assert results[4].message == "scripted unknown"
    assert elapsed < 0.6 + 0.1 + 2.0  # ran side by side, not 0.7 s of sleep in a row plus overhead


def test_real_solvers_in_parallel_keep_order() -> None:
    easy, hard = easy_script(), hard_script()
    tasks = [SolveTask(hard, "z3"), SolveTask(easy, "cvc5"), SolveTask(easy, "z3"), SolveTask(hard, "cvc5")]
    results = solve_many(tasks, FAST, jobs=2)
    assert [r.solver for r in results] == ["z3", "cvc5", "z3", "cvc5"]
    assert results[1].outcome is Outcome.PROVED and results[2].outcome is Outcome.PROVED
    assert results[0].outcome in (Outcome.TIMEOUT, Outcome.UNKNOWN)


def test_empty_task_list() -> None:
    assert solve_many([], FAST, jobs=2) == []


@pytest.mark.parametrize("jobs", [0, -1, True])
def test_bad_jobs(jobs: int) -> None:
    with pytest.raises(ConfigError, match="jobs"):
        solve_many([], FAST, jobs=jobs)


def test_unknown_solver_in_tasks_raises_config_error_before_running() -> None:
    with pytest.raises(ConfigError, match="unknown solver 'nope'"):
        solve_many([SolveTask("proved", "test-scripted"), SolveTask("proved", "nope")], FAST)
