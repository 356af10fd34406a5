"""Refutation time (issue 14): how long z3 takes on each refuted VC of specs/, and which of
its configurations (`solvers.strategies`: macro finder, plain) decides each VC.

Every spec is verified without the cache and without replay, one VC at a time (`jobs=1`,
so timings are not disturbed by each other), once per `--strategies` value given (default:
1 = the configurations in sequence on shares of the budget, as before the portfolio; 2 =
both at once); the seconds of every refuted VC are kept, and for every decided VC the
configuration that answered, counted per VC kind (what wins where).
Writes bench/results/refutations.json (per strategies value: median, 90th percentile, max,
each refuted VC, wins per kind; the VCs of specs/ slower than with the first value) and
prints a summary. Target: median < 0.2 s with z3; no VC slower than before.

Usage: python bench/refutations.py [--solver z3] [--timeout S] [--strategies 1,2] [SPEC...]
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import hoaregpu
from hoaregpu.solvers import Outcome

ROOT = Path(__file__).resolve().parent.parent


def measure(specs: list[str], solver: str, timeout: float, strategies: int) -> dict[str, Any]:
    result = hoaregpu.verify(
        specs, solver=solver, timeout=timeout, jobs=1, cache=False, replay=False, strategies=strategies
    )
    every: dict[str, dict[str, Any]] = {}
    wins: dict[str, Counter[str]] = defaultdict(Counter)
    for kernel in result.raw.kernels:
        for n, r in enumerate(kernel.results):
            o = r.vc.origin
            kind = o.kind.value
            line = o.span.line if o.span is not None else 0
            key = f"{Path(kernel.prepared.path).name}:{kernel.prepared.kernel.name}:{kind}:{line}:{n}"
            every[key] = {
                "outcome": r.result.outcome.value,
                "seconds": r.result.seconds,
                "configuration": r.result.configuration,
            }
            if r.result.outcome in (Outcome.PROVED, Outcome.REFUTED):
                wins[f"{kind} ({r.result.outcome.value})"][r.result.configuration or "-"] += 1
    refuted = [
        {"vc": k, "seconds": round(v["seconds"], 3), "configuration": v["configuration"]}
        for k, v in every.items()
        if v["outcome"] == Outcome.REFUTED.value
    ]
    times = sorted(r["seconds"] for r in refuted)
    return {
        "strategies": strategies,
        "refuted_vcs": len(times),
        "median_seconds": round(statistics.median(times), 3) if times else None,
        "p90_seconds": round(times[int(0.9 * (len(times) - 1))], 3) if times else None,
        "max_seconds": max(times) if times else None,
        "total_seconds": round(sum(v["seconds"] for v in every.values()), 2),
        "wins_by_kind": {k: dict(sorted(c.items())) for k, c in sorted(wins.items())},
        "refuted": refuted,
        "every_vc": every,
    }


def slower(before: dict[str, Any], after: dict[str, Any], slack: float = 0.5) -> list[dict[str, Any]]:
    """VCs that took longer than `slack` s more than before, or lost their verdict."""
    out = []
    for key, b in before["every_vc"].items():
        a = after["every_vc"].get(key)
        if a is None:
            continue
        lost = b["outcome"] in ("proved", "refuted") and a["outcome"] != b["outcome"]
        if lost or a["seconds"] > b["seconds"] + slack:
            out.append({"vc": key, "before": b, "after": a})
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("specs", nargs="*", default=[str(ROOT / "specs")])
    parser.add_argument("--solver", default="z3")
    parser.add_argument("--timeout", type=float, default=10.0)
    parser.add_argument("--strategies", default="1,2", help="comma-separated values to compare (1,2)")
    args = parser.parse_args()
    runs = [measure(args.specs, args.solver, args.timeout, int(n)) for n in args.strategies.split(",")]
    doc = {
        "solver": args.solver,
        "timeout": args.timeout,
        "target_median_seconds": 0.2,
        "runs": runs,
        "slower_than_first": {str(r["strategies"]): slower(runs[0], r) for r in runs[1:]},
    }
    out = ROOT / "bench" / "results" / "refutations.json"
    out.write_text(json.dumps(doc, indent=2) + "\n")
    for r in runs:
        print({k: v for k, v in r.items() if k not in ("refuted", "every_vc")})
    for n, s in doc["slower_than_first"].items():
        print(f"strategies {n}: {len(s)} VCs slower (> 0.5 s) or lost their verdict:", s)


if __name__ == "__main__":
    main()
