"""Solving a long kernel's VCs with and without their slices (issue 14; `vc/slicing.py`).

A kernel of N sequential loops (each with its invariants, one block, races checked) has
VCs each about as long as the program: the whole path before them. Where a path is long
and the VC's slice keeps at most three quarters of it, the solver gets the slice first
(`driver._slices`, `SolveTask.weaker`, `solvers.race`). This verifies the kernel for each N twice, with
slices (as shipped) and without (`driver.SLICE_MIN_PATH` out of reach), and records the
verdict, the VCs, how many were decided by their slice, the wall-clock time of solving
(one worker, no cache), and the solver input (bytes the solver reads, over all scripts
started: the VC's, and its slice's).

Writes bench/results/slices.{json,md}. Run: .venv/bin/python bench/slices.py [--sizes 10 30 100]
"""

from __future__ import annotations

import argparse
import json
import platform
import tempfile
import time
from collections import Counter
from pathlib import Path

from hoaregpu import driver
from hoaregpu.prepared import VerifyOptions
from hoaregpu.solvers import SolverOptions

RESULTS = Path(__file__).resolve().parent / "results"


def kernel(n: int) -> str:
    loops = "".join(
        f"""    /*@ loop invariant 0 <= i{k} && i{k} <= n;
        loop invariant a[threadIdx.x] >= \\old(a[threadIdx.x]);
    */
    for (int i{k} = 0; i{k} < n; i{k}++) {{
        a[threadIdx.x] = a[threadIdx.x] + 1;
    }}
"""
        for k in range(n)
    )
    return f"""/*@ requires n >= 0; requires gridDim.x == 1;
    ensures a[threadIdx.x] >= \\old(a[threadIdx.x]);
*/
__global__ void sequential(int *a, int n) {{
{loops}}}
"""


def measure(n: int, slices: bool, folder: Path, timeout: float) -> dict[str, object]:
    path = folder / f"sequential_{n}.cu"
    path.write_text(kernel(n), encoding="utf-8")
    saved = driver.SLICE_MIN_PATH
    driver.SLICE_MIN_PATH = saved if slices else 10**12
    try:
        options = VerifyOptions(solver="z3", solver_options=SolverOptions(timeout=timeout), cache=False)
        prepared, errors = driver.prepare([str(path)], None)
        assert not errors, errors
        start = time.perf_counter()
        results = driver.solve(prepared, options)
        seconds = time.perf_counter() - start
    finally:
        driver.SLICE_MIN_PATH = saved
    (result,) = results
    outcomes = Counter(r.result.outcome.value for r in result.results)
    by_slice = sum(1 for r in result.results if r.result.encoding == "slice")
    vcs = prepared[0].vcs
    return {
        "n": n,
        "slices": slices,
        "outcomes": dict(outcomes),
        "vcs": len(vcs),
        "vcs_with_a_slice": sum(1 for vc in vcs if vc.slices),
        "decided_by_slice": by_slice,
        "solve_seconds": round(seconds, 2),
        "script_bytes": sum(len(vc.script) for vc in vcs),
        "slice_bytes": sum(len(s) for vc in vcs for s in vc.slices),
    }


def markdown(rows: list[dict[str, object]], timeout: float) -> str:
    lines = [
        "# Slices (`bench/slices.py`)",
        "",
        f"N sequential loops, one block, races checked; z3, {timeout:g} s per VC, one worker, no cache.",
        "'by slice': VCs proved by their slice (tried first, alone for 0.25 s or until done).",
        "",
        "| N | slices | outcomes | VCs | with a slice | by slice | solving s | VC bytes | slice bytes |",
        "| ---: | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for r in rows:
        outcomes = ", ".join(f"{k} {v}" for k, v in sorted(r["outcomes"].items()))  # type: ignore[attr-defined]
        lines.append(
            f"| {r['n']} | {'on' if r['slices'] else 'off'} | {outcomes} | {r['vcs']} | "
            f"{r['vcs_with_a_slice']} | {r['decided_by_slice']} | {r['solve_seconds']} | "
            f"{r['script_bytes']} | {r['slice_bytes']} |"
        )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[10, 30, 100])
    ap.add_argument("--timeout", type=float, default=10.0)
    ap.add_argument("--out", default=str(RESULTS / "slices"), help="results path without suffix")
    args = ap.parse_args(argv)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.sizes:
            for slices in (True, False):
                row = measure(n, slices, Path(tmp), args.timeout)
                rows.append(row)
                print(json.dumps(row), flush=True)
    out = Path(args.out)
    meta = {"python": platform.python_version(), "machine": platform.machine(), "timeout": args.timeout}
    out.with_suffix(".json").write_text(json.dumps({"meta": meta, "rows": rows}, indent=2) + "\n")
    out.with_suffix(".md").write_text(markdown(rows, args.timeout))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
