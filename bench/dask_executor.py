"""Benchmark: `--executor dask` (2-worker local cluster) vs `--jobs 2`, on >= 1,000 VCs.

Generates a suite of kernels (each with a postcondition and a dozen assertions over
thread-local arithmetic, so that every VC is a small but real solver call), prepares it
once (front end, VC generation: the same for both executors), then solves every VC with
each executor and records the throughput (VCs per second of solving). The cache is off,
both see the same tasks, and the answers must be identical VC by VC. The Dask cluster is
started before timing (its start-up is reported separately); the target is a throughput of
at least 0.9x the local executor's on one machine.

Writes bench/results/dask_executor.json and .md.

Usage: python bench/dask_executor.py [--kernels N] [--asserts K] [--repeat R] [--solver z3]
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from hoaregpu.driver import KernelResult, PreparedKernel, VerifyOptions, prepare, solve
from hoaregpu.solvers import SolverOptions
from hoaregpu.solvers.dask_executor import DaskExecutor
from hoaregpu.solvers.executor import Executor, LocalExecutor

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"


def kernel_source(i: int, asserts: int) -> str:
    """A kernel whose VCs differ from every other kernel's (the constants depend on `i`)."""
    c, d = 3 + i % 17, 5 + i
    lines = [
        f"/*@ requires n > {i % 7};",
        f"    ensures \\forall int j; 0 <= j < blockDim.x ==> out[j] == in[j] * {c} + {d}; */",
        f"__global__ void gen{i}(int *in, int *out, int n) {{",
        "    int t = threadIdx.x;",
        f"    int v = in[t] * {c} + {d};",
    ]
    for k in range(asserts):
        lines.append(f"    //@ assert v - {d} == in[t] * {c} && n + {k} > {i % 7 + k};")
    lines += ["    out[t] = v;", "}", ""]
    return "\n".join(lines)


def generate(folder: Path, kernels: int, asserts: int) -> list[str]:
    paths = []
    for i in range(kernels):
        path = folder / f"gen{i:04d}.cu"
        path.write_text(kernel_source(i, asserts))
        paths.append(str(path))
    return paths


def outcomes(results: list[KernelResult]) -> list[str]:
    return [r.result.outcome.value for k in results for r in k.results]


def timed(
    prepared: list[PreparedKernel], executor: Executor, options: VerifyOptions
) -> tuple[float, list[str]]:
    start = time.perf_counter()
    results = solve(prepared, VerifyOptions(**{**options.__dict__, "executor": executor}))
    return time.perf_counter() - start, outcomes(results)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kernels", type=int, default=80)
    ap.add_argument("--asserts", type=int, default=12)
    ap.add_argument("--repeat", type=int, default=2, help="timed runs per executor, alternating (2)")
    ap.add_argument("--solver", default="z3")
    ap.add_argument("--no-write", action="store_true", help="print only; do not write bench/results")
    args = ap.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        paths = generate(Path(tmp), args.kernels, args.asserts)
        start = time.perf_counter()
        prepared, errors = prepare(paths, None, 0, None)
        prep_seconds = time.perf_counter() - start
        if errors:
            print(f"generated kernels did not prepare: {errors[0]}", file=sys.stderr)
            return 3
        nvcs = sum(len(k.vcs) for k in prepared)
        # a solver task per VC, and one per kernel checking that its `requires` is satisfiable
        ntasks = nvcs + sum(1 for k in prepared if k.precondition_script)
        print(f"{len(prepared)} kernels, {nvcs} VCs, {ntasks} solver tasks, prepared in {prep_seconds:.1f} s")
        options = VerifyOptions(solver=args.solver, solver_options=SolverOptions(timeout=30.0), cache=False)
        start = time.perf_counter()
        dask = DaskExecutor(workers=2, processes=True)
        dask.client()
        startup = time.perf_counter() - start
        runs: dict[str, list[float]] = {"local --jobs 2": [], "dask, 2-worker local cluster": []}
        answers: dict[str, list[str]] = {}
        try:
            for r in range(args.repeat):
                for name, executor in (
                    ("local --jobs 2", LocalExecutor(2)),
                    ("dask, 2-worker local cluster", dask),
                ):
                    seconds, got = timed(prepared, executor, options)
                    runs[name].append(seconds)
                    if answers.setdefault(name, got) != got:
                        print(f"{name}: answers changed between runs", file=sys.stderr)
                    print(f"run {r + 1} {name}: {seconds:.1f} s, {ntasks / seconds:.1f} tasks/s")
        finally:
            dask.close()
    local, remote = answers["local --jobs 2"], answers["dask, 2-worker local cluster"]
    same = local == remote
    best = {name: min(t) for name, t in runs.items()}
    ratio = best["local --jobs 2"] / best["dask, 2-worker local cluster"]
    doc: dict[str, Any] = {
        "kernels": len(prepared),
        "vcs": nvcs,
        "solver_tasks": ntasks,
        "solver": args.solver,
        "machine": f"{platform.machine()}, {platform.python_implementation()} {platform.python_version()}",
        "prepare_seconds": round(prep_seconds, 2),
        "dask_cluster_startup_seconds": round(startup, 2),
        "runs_seconds": {name: [round(t, 2) for t in ts] for name, ts in runs.items()},
        "tasks_per_second_best": {name: round(ntasks / t, 1) for name, t in best.items()},
        "tasks_per_second_median": {
            name: round(ntasks / statistics.median(ts), 1) for name, ts in runs.items()
        },
        "dask_vs_local_throughput": round(ratio, 3),
        "target": 0.9,
        "same_answers": same,
        "outcomes": {o: local.count(o) for o in sorted(set(local))},
    }
    print(json.dumps(doc, indent=2))
    if not args.no_write:
        RESULTS.mkdir(parents=True, exist_ok=True)
        (RESULTS / "dask_executor.json").write_text(json.dumps(doc, indent=2) + "\n")
        (RESULTS / "dask_executor.md").write_text(render(doc))
    return 0 if same else 1


def render(doc: dict[str, Any]) -> str:
    rows = "\n".join(
        f"| {name} | {', '.join(f'{t:.1f}' for t in doc['runs_seconds'][name])} | "
        f"{doc['tasks_per_second_best'][name]} | {doc['tasks_per_second_median'][name]} |"
        for name in doc["runs_seconds"]
    )
    return f"""# Dask executor vs local workers

`python bench/dask_executor.py` (bench/dask_executor.py): {doc["kernels"]} generated kernels,
{doc["vcs"]} VCs ({doc["solver_tasks"]} solver tasks with the kernels' `requires` checks), \
solver {doc["solver"]}, cache off, prepared once ({doc["prepare_seconds"]} s), then
solved by each executor in turn (alternating runs). Machine: {doc["machine"]}, 2 cores shared
with other jobs, so absolute times are noisy; the runs alternate so that both see the same load.

| executor | solve time per run (s) | tasks/s (best run) | tasks/s (median) |
|---|---|---|---|
{rows}

- throughput of the Dask executor relative to `--jobs 2` (best runs): **{doc["dask_vs_local_throughput"]}x**
  (target >= {doc["target"]}x)
- the same answer for every VC with both executors: {doc["same_answers"]} ({doc["outcomes"]})
- starting the 2-worker local cluster: {doc["dask_cluster_startup_seconds"]} s (not in the times above)

Each Dask task runs one VC through the local dispatcher on its worker (a forked solver
process under the time and memory limits), so the per-VC cost is the same fork + solve as
`--jobs 2` plus a scheduler round trip; on a real cluster the workers add cores.
"""


if __name__ == "__main__":
    sys.exit(main())
