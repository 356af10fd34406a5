"""Benchmark: front-end vs. solver time per spec and solver (issue 2 targets).

For each spec in specs/ and each solver it records the number of VCs, the front-end
time (parse + lower + transform + VC generation + SMT encoding, in this process), and the
solver time (wall clock of dispatching the kernel's VCs one at a time, including the
worker processes). Writes bench/results/verify_specs.json and .csv and prints a summary:
the front-end share of total time, and each spec's time with the better solver
(targets: front-end < 5 % of the total, every spec < 2 s with the better solver).

Usage: python bench/verify_specs.py [--solvers z3,cvc5] [--timeout S] [SPEC...]
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import time
from pathlib import Path
from typing import Any

from hoaregpu.driver import VerifyOptions, load_kernels, prepare_kernel, solve, spec_files
from hoaregpu.solvers import Outcome, SolverOptions

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"


def measure(path: str, solver: str, timeout: float) -> dict[str, Any]:
    start = time.perf_counter()
    kernels = load_kernels(path)
    prepared = [prepare_kernel(path, k, None) for k in kernels]
    frontend = time.perf_counter() - start
    options = VerifyOptions(solver=solver, solver_options=SolverOptions(timeout=timeout), jobs=1)
    start = time.perf_counter()
    results = solve(prepared, options)
    solving = time.perf_counter() - start
    outcomes = [r.result.outcome for k in results for r in k.results]
    return {
        "spec": Path(path).name,
        "solver": solver,
        "vcs": len(outcomes),
        "frontend_s": round(frontend, 4),
        "solver_s": round(solving, 4),
        "total_s": round(frontend + solving, 4),
        "proved": sum(o is Outcome.PROVED for o in outcomes),
        "refuted": sum(o is Outcome.REFUTED for o in outcomes),
        "undecided": sum(o not in (Outcome.PROVED, Outcome.REFUTED) for o in outcomes),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("specs", nargs="*", default=[str(ROOT / "specs")])
    ap.add_argument("--solvers", default="z3,cvc5")
    ap.add_argument("--timeout", type=float, default=10.0)
    args = ap.parse_args()
    rows = [
        measure(path, solver, args.timeout)
        for path in spec_files(args.specs)
        for solver in args.solvers.split(",")
    ]
    frontend = sum(float(r["frontend_s"]) for r in rows)
    total = sum(float(r["total_s"]) for r in rows)
    # A spec's time with the better solver: the faster one among those that decided every VC.
    best: dict[str, float] = {}
    for spec in sorted({str(r["spec"]) for r in rows}):
        mine = [r for r in rows if r["spec"] == spec]
        decided = [r for r in mine if r["undecided"] == 0] or mine
        best[spec] = min(float(r["total_s"]) for r in decided)
    slow = {s: t for s, t in best.items() if t >= 2.0}
    summary = {
        "frontend_share": round(frontend / total, 4) if total else 0.0,
        "frontend_s": round(frontend, 3),
        "total_s": round(total, 3),
        "max_spec_s_best_solver": round(max(best.values()), 3) if best else 0.0,
        "specs_over_2s_best_solver": slow,
    }
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "verify_specs.json").write_text(json.dumps({"summary": summary, "rows": rows}, indent=2))
    with (RESULTS / "verify_specs.csv").open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    json.dump(summary, sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
