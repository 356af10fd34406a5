"""What the spec-verdict tests share: run a folder of specs with one solver, compare each
file's VCs with its `// expect:` line (stable fields only: kind, line, outcome)."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

from hoaregpu.driver import KernelResult, PreparedKernel, VerifyOptions, prepare, solve, with_callees
from hoaregpu.expectations import mismatches, parse_expectation
from hoaregpu.solvers import SolverOptions

SPEC_ROOT = Path(__file__).resolve().parents[2] / "specs"
# 20 s per VC, so that a loaded machine does not turn proofs into timeouts
TIMEOUT = 20.0
IN_PROCESS = ("z3", "cvc5")  # pySMT's bindings (hoaregpu.solvers.native), no executable
# The VCs a spec's `allow-unknown` line names for the solver: they are known to run to their
# time limit (about a hundred of cvc5's), and what the test asks of them is no wrong answer,
# so a shorter limit keeps its meaning and saves the suite about ten minutes of waiting.
ALLOWED_UNKNOWN_TIMEOUT = 5.0


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
    prepared, errors = prepare([str(p) for p in paths], None, check_races=check_races)
    assert not errors, [e.render() for e in errors]
    kernels = _solved(prepared, solver, options, min(timeout, ALLOWED_UNKNOWN_TIMEOUT))
    if replay:
        from hoaregpu.interp.replay_cex import replay_results

        kernels = replay_results(kernels)
    by_path: dict[str, list[KernelResult]] = {}
    for k in kernels:
        by_path.setdefault(k.prepared.path, []).append(k)
    return by_path


def _solved(
    prepared: list[PreparedKernel], solver: str, options: VerifyOptions, short: float
) -> list[KernelResult]:
    """`driver.solve`, with the VCs a spec allows `solver` to leave undecided given `short`
    seconds each instead of the full limit."""
    full, quick = [], []
    for k in prepared:
        exp = parse_expectation(Path(k.path).read_text())
        allowed = exp.allowed_unknown(solver) if exp is not None else frozenset()
        known = [(vc.origin.kind.value, vc.origin.span.line) in allowed for vc in k.vcs]
        full.append(replace(k, vcs=tuple(vc for vc, x in zip(k.vcs, known, strict=True) if not x)))
        short_vcs = tuple(vc for vc, x in zip(k.vcs, known, strict=True) if x)
        quick.append(replace(k, vcs=short_vcs, precondition_script=None))
    short_options = replace(options, solver_options=replace(options.solver_options, timeout=short))
    solved_full = solve(full, options)
    answers = {}
    for r in [*solved_full, *solve([k for k in quick if k.vcs], short_options)]:
        answers |= {id(v.vc): v for v in r.results}
    out = []
    for k, f in zip(prepared, solved_full, strict=True):
        results = tuple(answers[id(vc)] for vc in k.vcs)  # in the kernel's order
        out.append(KernelResult(k, results, f.precondition))
    return with_callees(out)


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
    return mismatches(exp, outcomes, solver, violated), why
