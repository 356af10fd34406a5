"""Every spec in specs/ gets the verdict it records, with z3 and with cvc5.

Runs the real pipeline (parse → lower → transform → VCs → solvers in worker processes)
and compares stable fields only: which VCs (kind, line) are refuted, and that every
other VC is proved — or, where a spec's `allow-unknown` line says so, undecided. The
suite uses a 20 s timeout so that a loaded machine does not turn proofs into timeouts.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from hoaregpu.driver import KernelResult, VerifyOptions, verify
from hoaregpu.expectations import Expectation, mismatches, parse_expectation
from hoaregpu.solvers import SolverOptions

_SPEC_DIR = Path(__file__).resolve().parents[2] / "specs"
SPECS = sorted([*_SPEC_DIR.glob("*.cu"), *_SPEC_DIR.glob("*.cl")])  # CUDA and OpenCL
SOLVERS = ("z3", "cvc5")


@pytest.fixture(scope="module", params=SOLVERS)
def results(request: pytest.FixtureRequest) -> tuple[str, dict[str, list[KernelResult]]]:
    solver = request.param
    options = VerifyOptions(
        solver=solver, solver_options=SolverOptions(timeout=20.0), jobs=os.cpu_count() or 1, cache=False
    )
    run = verify([str(p) for p in SPECS], options)
    assert not run.errors, [e.render() for e in run.errors]
    by_path: dict[str, list[KernelResult]] = {}
    for k in run.kernels:  # a device function with a contract is a kernel of the file too
        by_path.setdefault(k.prepared.path, []).append(k)
    return solver, by_path


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
    outcomes = [
        (r.vc.origin.kind.value, r.vc.origin.span.line, r.result.outcome) for k in kernels for r in k.results
    ]
    assert not any(k.vacuous for k in kernels)
    why = [(r.vc.origin.span.line, r.result.message) for k in kernels for r in k.results if r.result.message]
    assert mismatches(expectation(path), outcomes, solver) == [], why


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
