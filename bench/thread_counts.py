"""Thread-count cliffs (issue 14, item 3): verdict and time of kernels at many thread counts.

Each kernel is verified at each thread count (`--threads N`, no cache, no replay, one VC at a
time so that the timings do not disturb each other) and the bench records its verdict, the
wall-clock seconds (preparation included), the preparation seconds, the slowest VC, and which
solver, thread encoding (`smt.thread_encoding`: expanded, symbolic) and solver configuration
(`solvers.strategies`: macro-finder, plain) decided each VC.

Kernels: `specs/vector_add_symbolic.cu` (a grid-stride loop, invariants over `k % blockDim.x`)
at 1, 2, 3, 4, 8, 16, 64, 256 and 1,024 threads, and in-place tree reductions whose
postcondition writes the sum out term by term (`a[0] == \\old(a[0]) + ... + \\old(a[N-1])`),
generated here at 8, 64, 256 and 1,024 threads, as one left-nested chain of `+` (as C parses
it; 1,023 deep at N = 1,024) and as a balanced tree of `+`.

Writes bench/results/thread_counts.{json,md}. Targets: every run verified; the tree
reductions at 256 and 1,024 threads each < 5 s.

Usage: python bench/thread_counts.py [--solver z3] [--timeout S] [--out NAME] [--quick]
(`--out before` keeps a second result set, e.g. measured on an older checkout with
`PYTHONPATH=<checkout>`; the markdown then shows both side by side.)
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import hoaregpu

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"
VECTOR_ADD = ROOT / "specs" / "vector_add_symbolic.cu"
VECTOR_ADD_THREADS = (1, 2, 3, 4, 8, 16, 64, 256, 1024)
TREE_THREADS = (8, 64, 256, 1024)


def tree_reduction(n: int, balanced: bool) -> str:
    """An in-place tree reduction over `n` threads (a power of two) whose postcondition is
    the sum of the `n` inputs written out."""
    terms = [f"\\old(a[{i}])" for i in range(n)]

    def tree(lo: int, hi: int) -> str:
        if hi - lo == 1:
            return terms[lo]
        mid = (lo + hi) // 2
        return f"({tree(lo, mid)} + {tree(mid, hi)})"

    total = tree(0, n) if balanced else " + ".join(terms)
    shape = "a balanced tree of +" if balanced else "one chain of +"
    return f"""// expect: verified
// An in-place tree reduction on {n} threads; the postcondition is the sum written out ({shape}).
/*@ requires blockDim.x == {n}; requires gridDim.x == 1;
    ensures a[0] == {total};
*/
__global__ void tree_reduction{n}(int *a) {{
    for (int s = {n // 2}; s > 0; s /= 2) {{
        if (threadIdx.x < s) {{
            a[threadIdx.x] += a[threadIdx.x + s];
        }}
        __syncthreads();
    }}
}}
"""


def measure(path: Path, threads: int | None, solver: str, timeout: float) -> dict[str, object]:
    start = time.perf_counter()
    try:
        v = hoaregpu.verify(
            [str(path)], threads=threads, solver=solver, timeout=timeout, jobs=1, cache=False, replay=False
        )
    except Exception as exc:  # an internal error is a result here (the bench's "before" had some)
        return {
            "verdict": "error",
            "seconds": round(time.perf_counter() - start, 2),
            "error": f"{type(exc).__name__}: {exc}"[:200],
        }
    seconds = time.perf_counter() - start
    if v.errors:
        return {"verdict": "error", "seconds": round(seconds, 2), "error": v.errors[0].render()[:200]}
    [kernel] = v.kernels
    [raw] = v.raw.kernels
    results = [r.result for r in raw.results]
    winners = Counter(
        f"{r.solver}/{getattr(r, 'encoding', '') or 'one encoding'}"
        + (f"/{r.configuration}" if getattr(r, "configuration", "") else "")
        for r in results
    )
    return {
        "verdict": kernel.verdict,
        "seconds": round(seconds, 2),
        "prepare_seconds": round(raw.prepared.frontend_seconds, 2),
        "slowest_vc_seconds": round(max((r.seconds for r in results), default=0.0), 2),
        "vcs": len(results),
        "undecided": [
            f"{vc.kind}:{vc.line}" for vc in kernel.vcs if vc.outcome.value not in ("proved", "refuted")
        ],
        "decided_by": dict(sorted(winners.items())),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--solver", default="z3")
    parser.add_argument("--timeout", type=float, default=10.0)
    parser.add_argument("--out", default="after", help="the name of this result set (after, before, ...)")
    parser.add_argument("--quick", action="store_true", help="skip the 1,024-thread trees")
    parser.add_argument("--trees", action="store_true", help="only the tree reductions at 256 and 1,024")
    args = parser.parse_args()
    runs: list[dict[str, object]] = []
    with tempfile.TemporaryDirectory() as tmp:
        # (kernel, file, threads, --threads): the trees fix their count in `requires`
        cases: list[tuple[str, Path, int, int | None]] = [
            ("vector_add_symbolic", VECTOR_ADD, t, t) for t in VECTOR_ADD_THREADS if not args.trees
        ]
        for n in TREE_THREADS:
            if (args.quick and n > 256) or (args.trees and n < 256):
                continue
            for balanced in (False, True):
                name = f"tree_reduction_{'balanced' if balanced else 'chain'}"
                path = Path(tmp) / f"{name}{n}.cu"
                path.write_text(tree_reduction(n, balanced))
                cases.append((name, path, n, None))
        measure(VECTOR_ADD, 1, args.solver, args.timeout)  # warm-up: imports, solver libraries
        for name, path, n, threads in cases:
            row = {"kernel": name, "threads": n, **measure(path, threads, args.solver, args.timeout)}
            runs.append(row)
            print(json.dumps(row), flush=True)
    out = RESULTS / "thread_counts.json"
    doc = json.loads(out.read_text()) if out.exists() else {}
    doc[args.out] = {"solver": args.solver, "timeout": args.timeout, "runs": runs}
    out.write_text(json.dumps(doc, indent=2) + "\n")
    (RESULTS / "thread_counts.md").write_text(markdown(doc))


def markdown(doc: dict[str, Any]) -> str:
    sets = [s for s in ("before", "after") if s in doc] + [s for s in doc if s not in ("before", "after")]
    keyed = {s: {(r["kernel"], r["threads"]): r for r in doc[s]["runs"]} for s in sets}
    keys = list(dict.fromkeys(k for s in sets for k in keyed[s]))
    lines = [
        "# Thread counts (bench/thread_counts.py)",
        "",
        "Verdict and wall-clock seconds per kernel and thread count (preparation included; no cache,",
        "one VC at a time); `decided by`: solver/thread encoding per VC of the last result set.",
        "",
        "| kernel | threads | "
        + " | ".join(f"{s}: verdict | {s}: s" for s in sets)
        + " | prepare s | slowest VC s | decided by |",
        "| --- | ---: | " + " | ".join("--- | ---:" for _ in sets) + " | ---: | ---: | --- |",
    ]
    for key in keys:
        cells = []
        for s in sets:
            r = keyed[s].get(key)
            cells += [str(r["verdict"]) if r else "", str(r["seconds"]) if r else ""]
        last = keyed[sets[-1]].get(key) or {}
        decided = ", ".join(f"{k} {v}" for k, v in dict(last.get("decided_by", {})).items())
        lines.append(
            f"| {key[0]} | {key[1]} | "
            + " | ".join(cells)
            + f" | {last.get('prepare_seconds', '')} | {last.get('slowest_vc_seconds', '')} | {decided} |"
        )
    info = ", ".join(f"{s}: {doc[s]['solver']}, timeout {doc[s]['timeout']} s" for s in sets)
    return "\n".join([*lines, "", f"Solver per set: {info}.", ""])


if __name__ == "__main__":
    main()
