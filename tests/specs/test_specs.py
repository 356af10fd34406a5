"""Every spec in specs/ gets the verdict it records, with z3 and with cvc5.

Runs the real pipeline (parse → lower → transform → VCs → solvers in worker processes)
and compares stable fields only: which VCs (kind, line) are refuted, and that every
other VC is proved — or, where a spec's `allow-unknown` line says so, undecided. The
suite uses a 20 s timeout so that a loaded machine does not turn proofs into timeouts.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from hoaregpu.driver import KernelResult
from hoaregpu.expectations import Expectation, mismatches, parse_expectation

from .spec_kit import SPEC_ROOT, run_specs, spec_files, verdict_mismatches

SPECS = spec_files(SPEC_ROOT)
SOLVERS = ("z3", "cvc5")


@pytest.fixture(scope="module", params=SOLVERS)
def results(request: pytest.FixtureRequest) -> tuple[str, dict[str, list[KernelResult]]]:
    return request.param, run_specs(SPECS, request.param)


def expectation(path: Path) -> Expectation:
    exp = parse_expectation(path.read_text())
    assert exp is not None, f"{path}: the first line must be an expectation (specs/README.md)"
    return exp


def test_at_least_twenty_specs_each_with_an_expectation() -> None:
    assert len(SPECS) >= 20
    for path in SPECS:
        expectation(path)


@pytest.mark.parametrize("path", SPECS, ids=lambda p: p.stem)
def test_spec_verdict(path: Path, results: tuple[str, dict[str, list[KernelResult]]]) -> None:
    solver, by_path = results
    kernels = by_path[str(path)]
    assert not any(k.vacuous for k in kernels)
    differences, why = verdict_mismatches(path, kernels, solver)
    assert differences == [], why


def test_mismatches_never_excuse_a_wrong_definitive_verdict() -> None:
    from hoaregpu.solvers import Outcome

    exp = parse_expectation(
        "// expect: failed postcondition:3\n"
        "// allow-unknown: z3 postcondition:3 loop-invariant-entry:5 -- why\n"
    )
    assert exp is not None
    assert (
        mismatches(
            exp, [("postcondition", 3, Outcome.TIMEOUT), ("loop-invariant-entry", 5, Outcome.UNKNOWN)], "z3"
        )
        == []
    )
    assert mismatches(exp, [("postcondition", 3, Outcome.TIMEOUT)], "cvc5") != []
    assert mismatches(exp, [("postcondition", 3, Outcome.PROVED)], "z3") != []
    assert (
        mismatches(
            exp, [("postcondition", 3, Outcome.REFUTED), ("loop-invariant-entry", 5, Outcome.REFUTED)], "z3"
        )
        != []
    )
    assert mismatches(exp, [("loop-invariant-entry", 5, Outcome.PROVED)], "z3") == [
        "no postcondition VC at line 3"
    ]
    assert exp.allowed_unknown("portfolio") == frozenset()
