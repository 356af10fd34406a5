"""Every race spec in specs/races/ gets the verdict it records, with race checking on
(`--check-races`), with z3 and with cvc5; and planted races are found by execution too.

These kernels are about races: without race checking the racy ones would verify (the
verdict then assumes race-freedom), so they live apart from specs/ (tests/specs/test_specs.py).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from hoaregpu.driver import KernelResult, VerifyOptions, verify
from hoaregpu.expectations import mismatches, parse_expectation
from hoaregpu.solvers import SolverOptions

_DIR = Path(__file__).resolve().parents[2] / "specs" / "races"
SPECS = sorted([*_DIR.glob("*.cu"), *_DIR.glob("*.cl")])
SOLVERS = ("z3", "cvc5")


@pytest.fixture(scope="module", params=SOLVERS)
def results(request: pytest.FixtureRequest) -> tuple[str, dict[str, list[KernelResult]]]:
    solver = request.param
    options = VerifyOptions(
        solver=solver,
        solver_options=SolverOptions(timeout=20.0),
        jobs=os.cpu_count() or 1,
        cache=False,
        check_races=True,
    )
    run = verify([str(p) for p in SPECS], options)
    assert not run.errors, [e.render() for e in run.errors]
    by_path: dict[str, list[KernelResult]] = {}
    for k in run.kernels:
        by_path.setdefault(k.prepared.path, []).append(k)
    return solver, by_path


def test_twenty_race_specs_racy_and_race_free() -> None:
    assert len(SPECS) >= 20
    verdicts = [parse_expectation(p.read_text()) for p in SPECS]
    assert all(v is not None for v in verdicts)
    racy = [v for v in verdicts if v is not None and any(k == "data-race" for k, _ in v.refuted)]
    assert len(racy) >= 10 and len(SPECS) - len(racy) >= 8


@pytest.mark.parametrize("path", SPECS, ids=lambda p: p.stem)
def test_race_spec_verdict(path: Path, results: tuple[str, dict[str, list[KernelResult]]]) -> None:
    solver, by_path = results
    kernels = by_path[str(path)]
    assert all(k.prepared.races_checked for k in kernels)
    outcomes = [
        (r.vc.origin.kind.value, r.vc.origin.span.line, r.result.outcome) for k in kernels for r in k.results
    ]
    exp = parse_expectation(path.read_text())
    assert exp is not None
    why = [(r.vc.origin.span.line, r.result.message) for k in kernels for r in k.results if r.result.message]
    assert mismatches(exp, outcomes, solver) == [], why
