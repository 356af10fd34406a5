"""Every race spec in specs/races/ gets the verdict it records, with race checking on
(`--check-races`), with z3 and with cvc5; and planted races are found by execution too.

These kernels are about races: without race checking the racy ones would verify (the
verdict then assumes race-freedom), so they live apart from specs/ (tests/specs/test_specs.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from hoaregpu.driver import KernelResult
from hoaregpu.expectations import parse_expectation

from .spec_kit import SPEC_ROOT, run_specs, spec_files, verdict_mismatches

SPECS = spec_files(SPEC_ROOT / "races")
SOLVERS = ("z3", "cvc5")


@pytest.fixture(scope="module", params=SOLVERS)
def results(request: pytest.FixtureRequest) -> tuple[str, dict[str, list[KernelResult]]]:
    return request.param, run_specs(SPECS, request.param, check_races=True)


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
    differences, why = verdict_mismatches(path, kernels, solver)
    assert differences == [], why
