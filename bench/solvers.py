"""Solver-layer benchmark on the specs: portfolio overhead, --jobs speed-up, warm cache.

(i)   portfolio (z3,cvc5, jobs 2) wall time / sum over VCs of the best single solver's time
      (z3 and cvc5 each run alone with jobs 1; per VC the faster *definitive* answer, or the
      faster time when neither decides)                                   target <= 1.15
(ii)  z3 with --jobs 2 vs --jobs 1, wall time of the solver layer           target >= 1.6
(iii) warm-cache re-run: `hoaregpu verify specs/` in a fresh process after a cold run with
      the same cache (whole command, front end included), and the solver layer alone
                                                                            target < 0.5 s
Run: .venv/bin/python bench/solvers.py [--timeout S]   (writes bench/results/solver_layer.json)
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from hoaregpu.driver import prepare
from hoaregpu.solvers import Outcome, SolverOptions, SolverResult, SolveTask, solve_many
from hoaregpu.solvers.cache import ResultCache

ROOT = Path(__file__).resolve().parent.parent
DEFINITIVE = (Outcome.PROVED, Outcome.REFUTED)


def timed(
    tasks: list[SolveTask], options: SolverOptions, jobs: int, cache: ResultCache | None = None
) -> tuple[float, list[SolverResult]]:
    start = time.perf_counter()
    results = solve_many(tasks, options, jobs, cache=cache)
    return time.perf_counter() - start, results


def best_single(per_solver: dict[str, list[SolverResult]]) -> float:
    total = 0.0
    for rs in zip(*per_solver.values(), strict=True):
        decided = [r.seconds for r in rs if r.outcome in DEFINITIVE]
        total += min(decided) if decided else min(r.seconds for r in rs)
    return total


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--timeout", type=float, default=10.0)
    ap.add_argument("--out", default=str(ROOT / "bench/results/solver_layer.json"))
    args = ap.parse_args()
    options = SolverOptions(timeout=args.timeout)
    kernels, errors = prepare([str(ROOT / "specs")], None)
    scripts = [vc.script for k in kernels for vc in k.vcs]
    print(f"{len(scripts)} VCs, {len(errors)} front-end errors, timeout {args.timeout:g} s", file=sys.stderr)

    single: dict[str, list[SolverResult]] = {}
    single_wall: dict[str, float] = {}
    for solver in ("z3", "cvc5"):
        wall, single[solver] = timed([SolveTask(s, solver) for s in scripts], options, 1)
        single_wall[solver] = wall
        print(f"{solver} alone, jobs 1: {wall:.2f} s", file=sys.stderr)
    best = best_single(single)
    port_wall, port = timed([SolveTask(s, "portfolio") for s in scripts], options, 2)
    print(f"portfolio, jobs 2: {port_wall:.2f} s; best single sum {best:.2f} s", file=sys.stderr)
    z3_tasks = [SolveTask(s, "z3") for s in scripts]
    j2_wall, _ = timed(z3_tasks, options, 2)
    print(f"z3, jobs 2: {j2_wall:.2f} s (jobs 1: {single_wall['z3']:.2f} s)", file=sys.stderr)

    with tempfile.TemporaryDirectory() as cache_dir:
        env = {**os.environ, "HOAREGPU_CACHE_DIR": cache_dir}
        cmd = [sys.executable, "-m", "hoaregpu.cli", "verify", "specs/", "--no-replay", "--solver", "z3"]
        cmd += ["--timeout", str(args.timeout), "--jobs", "2"]
        start = time.perf_counter()
        subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, check=False)
        cold_cli = time.perf_counter() - start
        start = time.perf_counter()
        subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, check=False)
        warm_cli = time.perf_counter() - start
        cache = ResultCache(cache_dir)
        decided = [t for t, r in zip(z3_tasks, single["z3"], strict=True) if r.outcome in DEFINITIVE]
        warm_decided, _ = timed(decided, options, 2, cache)
        warm_all, warm_results = timed(z3_tasks, options, 2, cache)
    undecided = sum(1 for r in warm_results if not r.cached)
    frontend = sum(k.frontend_seconds for k in kernels)
    doc = {
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(), "load": os.getloadavg()},
        "vcs": len(scripts),
        "timeout": args.timeout,
        "single_jobs1_wall_seconds": {k: round(v, 3) for k, v in single_wall.items()},
        "single_decided": {k: sum(r.outcome in DEFINITIVE for r in v) for k, v in single.items()},
        "portfolio_decided": sum(r.outcome in DEFINITIVE for r in port),
        "portfolio_disagreements": sum("disagree" in r.message for r in port),
        "i_portfolio_wall_seconds": round(port_wall, 3),
        "i_best_single_sum_seconds": round(best, 3),
        "i_portfolio_ratio": round(port_wall / best, 3),
        "i_target": "<= 1.15",
        "ii_z3_jobs1_seconds": round(single_wall["z3"], 3),
        "ii_z3_jobs2_seconds": round(j2_wall, 3),
        "ii_speedup": round(single_wall["z3"] / j2_wall, 3),
        "ii_target": ">= 1.6",
        "iii_cold_cli_seconds": round(cold_cli, 3),
        "iii_warm_cli_seconds": round(warm_cli, 3),
        "iii_warm_solver_layer_decided_vcs_seconds": round(warm_decided, 3),
        "iii_warm_solver_layer_all_vcs_seconds": round(warm_all, 3),
        "iii_undecided_vcs_rerun": undecided,
        "iii_frontend_seconds": round(frontend, 3),
        "iii_target": "< 0.5",
        "notes": "Undecided VCs (timeout/unknown) are never cached, so a warm re-run of the whole suite "
        "re-solves them; the CLI time also includes Python start-up and the front end.",
    }
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(doc, indent=2) + "\n")
    print(json.dumps(doc, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
