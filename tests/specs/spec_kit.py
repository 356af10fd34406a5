"""What the spec-verdict tests share: run a folder of specs with one solver, compare each
file's VCs with its `// expect:` line (stable fields only: kind, line, outcome)."""

from __future__ import annotations

import os
from pathlib import Path

from hoaregpu.driver import KernelResult, VerifyOptions, verify
from hoaregpu.expectations import mismatches, parse_expectation, run_violations
from hoaregpu.solvers import SolverOptions

SPEC_ROOT = Path(__file__).resolve().parents[2] / "specs"
# 20 s per VC, so that a loaded machine does not turn proofs into timeouts
TIMEOUT = 20.0
IN_PROCESS = ("z3", "cvc5")  # pySMT's bindings (hoaregpu.solvers.native), no executable


def spec_files(folder: Path) -> list[Path]:
    return sorted([*folder.glob("*.cu"), *folder.glob("*.cl")])  # CUDA and OpenCL


def run_specs(
    paths: list[Path],
    solver: str,
    *,
    check_races: bool = True,
    timeout: float = TIMEOUT,
    replay: bool = False,
) -> dict[str, list[KernelResult]]:
    """Every kernel of every file, by path (a device function with a contract is a kernel too);
    with `replay`, refuted VCs' counterexamples run on the interpreter (`VCResult.replay`)."""
    # in-process solvers only: .ci/run's second run (no optional programs on PATH) skips tests/specs/
    assert solver in IN_PROCESS, f"{solver}: the spec tests run in-process solvers only ({IN_PROCESS})"
    options = VerifyOptions(
        solver=solver,
        solver_options=SolverOptions(timeout=timeout),
        jobs=os.cpu_count() or 1,
        cache=False,
        check_races=check_races,
    )
    run = verify([str(p) for p in paths], options)
    assert not run.errors, [e.render() for e in run.errors]
    kernels = list(run.kernels)
    if replay:
        from hoaregpu.interp.replay_cex import replay_results

        kernels = replay_results(kernels)
    by_path: dict[str, list[KernelResult]] = {}
    for k in kernels:
        by_path.setdefault(k.prepared.path, []).append(k)
    return by_path


def verdict_mismatches(path: Path, kernels: list[KernelResult], solver: str) -> tuple[list[str], object]:
    """The differences between a file's VCs and its expectation, and the solvers' messages."""
    exp = parse_expectation(path.read_text())
    assert exp is not None, f"{path}: the first line must be an expectation (specs/README.md)"
    outcomes = [
        (r.vc.origin.kind.value, r.vc.origin.span.line, r.result.outcome) for k in kernels for r in k.results
    ]
    why = [(r.vc.origin.span.line, r.result.message) for k in kernels for r in k.results if r.result.message]
    violated = [
        (r.vc.origin.kind.value, r.vc.origin.span.line)
        for k in kernels
        for r in k.results
        if r.violated_by_run
    ]
    return mismatches(exp, outcomes, solver) + run_violations(exp, violated), why
