"""A solver's configurations in parallel (`solvers.strategies`, `--strategies`): the first
definitive answer wins, the wall clock is shared, crashes and undecided answers never prove."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from hoaregpu.errors import ConfigError
from hoaregpu.solvers import Outcome, SolverOptions, SolveTask, solve_many
from hoaregpu.solvers.backend import Answer
from hoaregpu.solvers.cache import ResultCache
from hoaregpu.solvers.native import Z3_STRATEGIES
from hoaregpu.solvers.strategies import Strategies, settle, solve_strategies

from .fakes import fake_solver, refutable_script, valid_script

OPTS = SolverOptions(timeout=6.0, memory_mb=None)


def _fake(plan: dict[str, tuple[str, float]]):  # type: ignore[no-untyped-def]
    """A run function: configuration → (what to do, after how many seconds); records budgets."""

    def run(name: str, options: SolverOptions, quick: bool = False) -> Answer:
        what, delay = plan[name]
        if delay > options.timeout:  # as a solver does: its time limit is kept
            time.sleep(options.timeout)
            return Answer(Outcome.TIMEOUT, message=name)
        time.sleep(delay)
        if what == "exit":
            os._exit(3)  # the child dies without an answer
        if what == "raise":
            raise RuntimeError("boom")
        if what == "budget":
            return Answer(Outcome.UNKNOWN, message=f"{options.timeout:.2f}")
        return Answer(Outcome(what), message=name)

    return run


TWO = Strategies(parallel=("first", "second"), sequence=(("first", 0.5), ("second", 1.0)))


def test_a_refutation_by_the_second_configuration_is_not_kept_waiting() -> None:
    start = time.monotonic()
    run = _fake({"first": ("proved", 30.0), "second": ("refuted", 0.2)})
    answer = solve_strategies(TWO, run, OPTS)
    assert answer.outcome is Outcome.REFUTED and answer.configuration == "second"
    assert time.monotonic() - start < 3.0  # not half the timeout, and the sleeper was killed


def test_in_sequence_the_first_configuration_takes_its_share_first() -> None:
    start = time.monotonic()
    run = _fake({"first": ("budget", 0.0), "second": ("refuted", 0.2)})
    answer = solve_strategies(TWO, run, SolverOptions(timeout=6.0, memory_mb=None, strategies=1))
    assert answer.outcome is Outcome.REFUTED and answer.configuration == "second"
    assert time.monotonic() - start < 3.0


def test_each_parallel_configuration_gets_the_whole_budget_left() -> None:
    run = _fake({"first": ("budget", 0.0), "second": ("budget", 0.3)})
    answer = solve_strategies(TWO, run, OPTS)
    assert answer.outcome is Outcome.UNKNOWN  # every configuration undecided: never a proof
    assert float(answer.message) > 5.5  # the second's budget: shared wall clock, not split
    shares = Strategies(parallel=("first", "second"), sequence=(("first", 0.5),))
    alone = solve_strategies(shares, run, SolverOptions(timeout=6.0, memory_mb=None, strategies=1))
    assert 2.9 < float(alone.message) <= 3.0  # in sequence: its share


@pytest.mark.parametrize("crash", ["exit", "raise"])
def test_a_crashing_configuration_is_an_error_never_a_proof(crash: str) -> None:
    run = _fake({"first": ("unknown", 0.3), "second": (crash, 0.0)})
    answer = solve_strategies(TWO, run, OPTS)
    assert answer.outcome is Outcome.ERROR and "crashed" in answer.message


def test_a_crashing_configuration_does_not_hide_another_ones_answer() -> None:
    run = _fake({"first": ("refuted", 0.5), "second": ("exit", 0.0)})
    answer = solve_strategies(TWO, run, OPTS)
    assert answer.outcome is Outcome.REFUTED and answer.configuration == "first"


def test_the_first_configuration_alone_decides_the_quick_vcs(tmp_path: Path) -> None:
    started = tmp_path / "second-started"
    decide = _fake({"first": ("proved", 0.0)})
    tries: list[tuple[str, bool]] = []

    def run(name: str, options: SolverOptions, quick: bool = False) -> Answer:
        tries.append((name, quick))
        if name == "second":
            started.write_text("yes")
            return Answer(Outcome.UNKNOWN)
        answer: Answer = decide(name, options)
        return answer

    answer = solve_strategies(TWO, run, OPTS)
    assert answer.outcome is Outcome.PROVED and answer.configuration == "first"
    assert not started.exists()  # no second solver was started for a VC decided at once
    assert tries == [("first", True)]  # the quick try, which the backend bounds by work


def test_undecided_configurations_give_way_to_the_waiting_ones() -> None:
    three = Strategies(parallel=("a", "b", "c"), sequence=())
    run = _fake({"a": ("proved", 30.0), "b": ("unknown", 0.0), "c": ("proved", 0.2)})
    start = time.monotonic()
    answer = solve_strategies(three, run, OPTS)  # two at once: c starts when b gives up
    assert answer.outcome is Outcome.PROVED and answer.configuration == "c"
    assert time.monotonic() - start < 3.0


def test_a_timeout_stays_a_timeout() -> None:
    run = _fake({"first": ("timeout", 0.0), "second": ("unknown", 0.0)})
    answer = solve_strategies(TWO, run, OPTS)
    assert answer.outcome is Outcome.TIMEOUT and answer.message == "timeout after 6.0 s"


def test_configurations_that_disagree_are_an_error() -> None:
    both = [Answer(Outcome.PROVED, configuration="a"), Answer(Outcome.REFUTED, configuration="b")]
    answer = settle(both, 0.1, OPTS)
    assert answer.outcome is Outcome.ERROR and "disagree" in answer.message


def test_strategies_must_be_positive() -> None:
    with pytest.raises(ConfigError, match="strategies"):
        SolverOptions(strategies=0)


@pytest.mark.parametrize("strategies", [1, 2])
def test_z3_records_which_configuration_decided(strategies: int) -> None:
    options = SolverOptions(timeout=10.0, strategies=strategies)
    refuted, proved = solve_many(
        [SolveTask(refutable_script(), "z3"), SolveTask(valid_script(), "z3")], options
    )
    assert refuted.outcome is Outcome.REFUTED and refuted.model_checked
    assert proved.outcome is Outcome.PROVED
    assert {refuted.configuration, proved.configuration} <= set(Z3_STRATEGIES.parallel)


def test_an_undecided_answer_under_fewer_configurations_is_tried_again(tmp_path: Path) -> None:
    counter = tmp_path / "calls"
    name = fake_solver(tmp_path, f"echo x >> {counter}\necho unknown")
    cache = ResultCache(tmp_path / "cache")
    task = SolveTask(valid_script(), name)
    one = SolverOptions(timeout=5.0, memory_mb=None, strategies=1)
    [first] = solve_many([task], one, cache=cache)
    [again] = solve_many([task], one, cache=cache)
    assert first.outcome is Outcome.UNKNOWN and again.cached
    [wider] = solve_many([task], SolverOptions(timeout=5.0, memory_mb=None, strategies=2), cache=cache)
    assert not wider.cached and counter.read_text().count("x") == 2
