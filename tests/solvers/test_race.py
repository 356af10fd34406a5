"""Encodings raced in one worker (`solvers.race`, `SolveTask.alternatives`)."""

from __future__ import annotations

import os
import time

from hoaregpu.solvers import Outcome, SolverOptions, SolveTask, solve_many
from hoaregpu.solvers.backend import Answer, Backend
from hoaregpu.solvers.race import race, settle
from hoaregpu.solvers.registry import register_backend

OPTS = SolverOptions(timeout=5.0, memory_mb=None)


class RaceBackend(Backend):
    """Test-only: the 'script' says what to answer, and after how long."""

    name = "test-race"

    def version(self) -> str | None:
        return "0"

    def unavailable(self) -> str | None:
        return None

    def solve(self, script: str, options: SolverOptions) -> Answer:
        word, delay = script.split()
        time.sleep(float(delay))
        if word == "pid":
            return Answer(Outcome.UNKNOWN, message=str(os.getpid()))
        return Answer(Outcome(word))


register_backend("test-race", RaceBackend)


def test_one_script_is_solved_in_the_worker_itself() -> None:
    which, answer = race(RaceBackend(), ["pid 0"], OPTS)
    assert which == 0 and answer.message == str(os.getpid())


def test_the_first_definitive_answer_wins_and_the_slow_encoding_is_not_awaited() -> None:
    start = time.monotonic()
    which, answer = race(RaceBackend(), ["proved 30", "proved 0"], OPTS)
    assert (which, answer.outcome) == (1, Outcome.PROVED)
    assert time.monotonic() - start < 20  # the 30 s sleeper was killed


def test_an_undecided_encoding_does_not_stop_the_race() -> None:
    which, answer = race(RaceBackend(), ["unknown 0", "refuted 0.3"], OPTS)
    assert (which, answer.outcome) == (1, Outcome.REFUTED)


def test_all_undecided_gives_the_most_informative() -> None:
    which, answer = race(RaceBackend(), ["timeout 0", "unknown 0"], OPTS)
    assert (which, answer.outcome) == (1, Outcome.UNKNOWN)


def test_encodings_that_disagree_are_an_error_never_a_proof() -> None:
    _, answer = settle({0: Answer(Outcome.PROVED), 1: Answer(Outcome.REFUTED)})
    assert answer.outcome is Outcome.ERROR and "disagree" in answer.message


def test_solve_many_names_the_encoding_that_answered() -> None:
    task = SolveTask(
        "unknown 0", "test-race", alternatives=("proved 0.2",), encodings=("expanded", "symbolic")
    )
    [result] = solve_many([task], OPTS)
    assert result.outcome is Outcome.PROVED and result.encoding == "symbolic"


def test_a_weaker_scripts_refutation_is_no_refutation_of_the_vc() -> None:
    # a slice's countermodel may violate a hypothesis the slice left out
    which, answer = race(RaceBackend(), ["unknown 0.3", "refuted 0"], OPTS, weaker_from=1)
    assert answer.outcome is Outcome.UNKNOWN
    which, answer = race(RaceBackend(), ["refuted 0.5", "refuted 0"], OPTS, weaker_from=1)
    assert (which, answer.outcome) == (0, Outcome.REFUTED)  # the VC's own refutation still counts


def test_a_weaker_scripts_proof_proves_the_vc_and_is_named_slice() -> None:
    task = SolveTask("unknown 1", "test-race", weaker=("proved 0",))
    [result] = solve_many([task], OPTS)
    assert result.outcome is Outcome.PROVED and result.encoding == "slice"
    task = SolveTask("unknown 0", "test-race", weaker=("refuted 0",))
    [result] = solve_many([task], OPTS)
    assert result.outcome is Outcome.UNKNOWN


def test_an_undecided_vc_reports_its_own_answer_not_its_slices() -> None:
    which, answer = race(RaceBackend(), ["timeout 0.3", "refuted 0"], OPTS, weaker_from=1)
    assert (which, answer.outcome) == (0, Outcome.TIMEOUT)
