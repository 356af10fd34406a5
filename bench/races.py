"""Benchmark: the cost of race checking (issue 11 target: with ÷ without ≤ 2).

For each spec in specs/ (not specs/races/, whose kernels are about races) it verifies the
file twice, with race checking (the default) and with `--assume-race-free`, in alternating
order so that a change of the machine's load hits both alike: front end + VC generation
(Houdini included) + solving, one solver worker, no cache. Writes bench/results/races.json
and prints the totals, the ratio, and the specs with the largest ratios.

Usage: python bench/races.py [--solver z3] [--timeout S] [SPEC...]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from hoaregpu.driver import VerifyOptions, prepare, solve
from hoaregpu.solvers import Outcome, SolverOptions

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"


def timed(path: str, options: VerifyOptions) -> tuple[float, int, int]:
    """Seconds, VCs, VCs not proved."""
    start = time.perf_counter()
    prepared, errors = prepare([path], None, options.unroll, options.clang, options.check_races)
    results = solve(prepared, options) if not errors else []
    seconds = time.perf_counter() - start
    outcomes = [r.result.outcome for k in results for r in k.results]
    return seconds, len(outcomes), sum(o is not Outcome.PROVED for o in outcomes)


def measure(path: str, solver: str, timeout: float, first_checked: bool) -> dict[str, Any]:
    row: dict[str, Any] = {"spec": Path(path).name}
    for checked in (first_checked, not first_checked):
        options = VerifyOptions(
            solver=solver, solver_options=SolverOptions(timeout=timeout), jobs=1, check_races=checked
        )
        seconds, vcs, unproved = timed(path, options)
        key = "checked" if checked else "assumed"
        row |= {f"{key}_s": round(seconds, 3), f"{key}_vcs": vcs, f"{key}_unproved": unproved}
    row["ratio"] = round(row["checked_s"] / row["assumed_s"], 2) if row["assumed_s"] else None
    return row


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("specs", nargs="*")
    ap.add_argument("--solver", default="z3")
    ap.add_argument("--timeout", type=float, default=10.0)
    args = ap.parse_args()
    paths = args.specs or sorted(
        str(p) for p in [*(ROOT / "specs").glob("*.cu"), *(ROOT / "specs").glob("*.cl")]
    )
    rows = []
    for n, path in enumerate(paths):
        rows.append(measure(path, args.solver, args.timeout, first_checked=n % 2 == 0))
        print(json.dumps(rows[-1]), file=sys.stderr, flush=True)
    checked = sum(r["checked_s"] for r in rows)
    assumed = sum(r["assumed_s"] for r in rows)
    worst = sorted(rows, key=lambda r: -(r["checked_s"] - r["assumed_s"]))[:10]
    summary = {
        "specs": len(rows),
        "solver": args.solver,
        "checked_s": round(checked, 2),
        "assumed_s": round(assumed, 2),
        "ratio": round(checked / assumed, 3) if assumed else None,
        "largest_extra_s": {r["spec"]: round(r["checked_s"] - r["assumed_s"], 2) for r in worst},
    }
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "races.json").write_text(json.dumps({"summary": summary, "rows": rows}, indent=2) + "\n")
    json.dump(summary, sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
