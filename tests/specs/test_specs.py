"""Every spec in specs/ gets the verdict it records, with z3 and with cvc5.

Runs the real pipeline (parse → lower → transform → VCs → solvers in worker processes)
and compares stable fields only: which VCs (kind, line) are refuted, and that every
other VC is proved — or, where a spec's `allow-unknown` line says so, undecided.
"""

from __future__ import annotations

import os

import pytest

from hoaregpu.driver import KernelResult, VerifyOptions, verify
from hoaregpu.solvers import Outcome, SolverOptions

from .expectations import Expectation, all_expectations

EXPECTATIONS = all_expectations()
SOLVERS = ("z3", "cvc5")


@pytest.fixture(scope="module", params=SOLVERS)
def results(request: pytest.FixtureRequest) -> tuple[str, dict[str, KernelResult]]:
    solver = request.param
    options = VerifyOptions(
        solver=solver, solver_options=SolverOptions(timeout=20.0), jobs=os.cpu_count() or 1
    )
    run = verify([str(e.path) for e in EXPECTATIONS], options)
    assert not run.errors, [e.render() for e in run.errors]
    return solver, {k.prepared.path: k for k in run.kernels}


def test_at_least_twenty_specs() -> None:
    assert len(EXPECTATIONS) >= 20


@pytest.mark.parametrize("exp", EXPECTATIONS, ids=lambda e: e.path.stem)
def test_spec_verdict(exp: Expectation, results: tuple[str, dict[str, KernelResult]]) -> None:
    solver, by_path = results
    kernel = by_path[str(exp.path)]
    outcomes = {(r.vc.origin.kind.value, r.vc.origin.span.line): r.result.outcome for r in kernel.results}
    allowed = exp.allowed_unknown(solver)
    assert exp.refuted <= outcomes.keys(), f"expected VCs missing: {exp.refuted - outcomes.keys()}"
    for vc, outcome in sorted(outcomes.items()):
        expected = Outcome.REFUTED if vc in exp.refuted else Outcome.PROVED
        if outcome is expected:
            continue
        # Soundness first: never the opposite definitive verdict, whatever the allowances.
        assert outcome not in (Outcome.PROVED, Outcome.REFUTED), (
            f"{vc}: {outcome.value}, expected {expected.value}"
        )
        assert vc in allowed, (
            f"{vc}: {outcome.value} with {solver}, expected {expected.value} (no allow-unknown)"
        )
