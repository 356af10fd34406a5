"""Refutation time (issue 14): how long z3 takes on each refuted VC of specs/.

Every spec is verified without the cache and without replay, one VC at a time (`jobs=1`,
so timings are not disturbed by each other); the seconds of every refuted VC are kept.
Writes bench/results/refutations.json (median, 90th percentile, max, each VC) and prints
a summary. Target: median < 0.2 s with z3.

Usage: python bench/refutations.py [--solver z3] [--timeout S] [SPEC...]
"""

from __future__ import annotations

import argparse
import json
import statistics
from pathlib import Path

import hoaregpu
from hoaregpu.solvers import Outcome

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("specs", nargs="*", default=[str(ROOT / "specs")])
    parser.add_argument("--solver", default="z3")
    parser.add_argument("--timeout", type=float, default=10.0)
    args = parser.parse_args()
    result = hoaregpu.verify(
        args.specs, solver=args.solver, timeout=args.timeout, jobs=1, cache=False, replay=False
    )
    refuted = [
        {"file": Path(vc.file).name, "line": vc.line, "kind": vc.kind, "seconds": round(vc.seconds, 3)}
        for vc in result.vcs
        if vc.outcome is Outcome.REFUTED
    ]
    times = sorted(r["seconds"] for r in refuted)
    doc = {
        "solver": args.solver,
        "timeout": args.timeout,
        "refuted_vcs": len(times),
        "median_seconds": round(statistics.median(times), 3) if times else None,
        "p90_seconds": round(times[int(0.9 * (len(times) - 1))], 3) if times else None,
        "max_seconds": max(times) if times else None,
        "target_median_seconds": 0.2,
        "vcs": refuted,
    }
    out = ROOT / "bench" / "results" / "refutations.json"
    out.write_text(json.dumps(doc, indent=2) + "\n")
    print({k: v for k, v in doc.items() if k != "vcs"})


if __name__ == "__main__":
    main()
