"""VC preparation time and SMT size against kernel size (issue 14, "linear VC generation").

Three families of generated kernels, each of size N:

- `straight`: N assignments in a row (`x = x + 1;`), one postcondition;
- `sequential`: N `for` loops one after the other, each with its invariants (2N + 1 VCs);
- `nested`: N loops in nests (each nest `DEPTH` deep, one after the other: Clang refuses
  brackets nested deeper than 256), every level with its invariants.

For each N of a geometric series (10, 30, 100, ... up to --max-n) it measures the
preparation of the kernel (front end + VC generation + SMT printing, no solving: what
`driver.prepare` does) and the SMT text printed (bytes), then fits log-log slopes (least
squares over the sizes measured, from N >= 100 when there are at least three of those,
so that fixed costs do not flatten the slope). Writes bench/results/vc_scaling.{json,md}.

Run: .venv/bin/python bench/vc_scaling.py [--max-n 10000] [--families straight ...]
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import sys
import tempfile
import time
from pathlib import Path

from hoaregpu import loop_inference, race_invariants
from hoaregpu.driver import load_kernels, prepare_kernel

RESULTS = Path(__file__).resolve().parent / "results"
DEPTH = 10  # loops per nest in the `nested` family


def straight(n: int) -> str:
    body = "\n".join("    x = x + 1;" for _ in range(n))
    return f"""\
/*@ ensures a[threadIdx.x] == \\old(a[threadIdx.x]) + {n}; */
__global__ void straight(int *a) {{
    int x = a[threadIdx.x];
{body}
    a[threadIdx.x] = x;
}}
"""


def _loop(k: int, indent: str, inner: str) -> str:
    return f"""\
{indent}/*@ loop invariant 0 <= i{k} && i{k} <= n;
{indent}    loop invariant a[threadIdx.x] >= \\old(a[threadIdx.x]);
{indent}*/
{indent}for (int i{k} = 0; i{k} < n; i{k}++) {{
{inner}{indent}}}
"""


def sequential(n: int) -> str:
    step = "        a[threadIdx.x] = a[threadIdx.x] + 1;\n"
    loops = "".join(_loop(k, "    ", step) for k in range(n))
    return f"""\
/*@ requires n >= 0;
    ensures a[threadIdx.x] >= \\old(a[threadIdx.x]);
*/
__global__ void sequential(int *a, int n) {{
{loops}}}
"""


def nested(n: int) -> str:
    nests = []
    k = 0
    while k < n:
        depth = min(DEPTH, n - k)
        inner = " " * (4 * (depth + 1)) + "a[threadIdx.x] = a[threadIdx.x] + 1;\n"
        for level in reversed(range(depth)):
            inner = _loop(k + level, " " * (4 * (level + 1)), inner)
        nests.append(inner)
        k += depth
    return f"""\
/*@ requires n >= 0;
    ensures a[threadIdx.x] >= \\old(a[threadIdx.x]);
*/
__global__ void nested(int *a, int n) {{
{"".join(nests)}}}
"""


FAMILIES = {"straight": straight, "sequential": sequential, "nested": nested}
SLOPES = (
    "prepare_seconds",
    "prepare_cpu",
    "frontend_cpu",
    "vcgen_cpu",
    "inference_cpu",
    "smt_bytes",
    "solver_input_bytes",
)


def sizes(max_n: int) -> list[int]:
    out: list[int] = []
    k = 0
    while True:
        n = (10 if k % 2 == 0 else 30) * 10 ** (k // 2)
        if n > max_n:
            return out
        out.append(n)
        k += 1


def smt_bytes(prepared: object) -> tuple[int, int]:
    """(bytes printed, bytes a solver reads over all VCs). Before the shared prefix each VC's
    script was printed whole, so the two were the same."""
    vcs = prepared.vcs  # type: ignore[attr-defined]
    prefix = getattr(prepared, "smt_prefix", None)
    if prefix is None:
        total = sum(len(vc.script) for vc in vcs)
        return total, total
    printed = len(prefix) + sum(len(vc.body) for vc in vcs)
    read = sum(vc.prefix_end + len(vc.body) for vc in vcs)
    return printed, read


_INFERENCE = [0.0]  # CPU seconds in race_invariants.houdini since the last measure()
_houdini = race_invariants.houdini


def _timed_houdini(*args: object, **kwargs: object) -> object:
    start = time.process_time()
    try:
        return _houdini(*args, **kwargs)  # type: ignore[arg-type]
    finally:
        _INFERENCE[0] += time.process_time() - start


# both users of Houdini: the race logs' invariants, and those inferred beside the user's
race_invariants.houdini = _timed_houdini  # type: ignore[assignment]
loop_inference.houdini = _timed_houdini  # type: ignore[assignment]


def measure(family: str, n: int, folder: Path) -> dict[str, object]:
    path = folder / f"{family}_{n}.cu"
    _INFERENCE[0] = 0.0
    path.write_text(FAMILIES[family](n), encoding="utf-8")
    start, start_cpu = time.perf_counter(), time.process_time()
    (kernel,) = load_kernels(str(path))
    front, front_cpu = time.perf_counter() - start, time.process_time() - start_cpu
    prepared = prepare_kernel(str(path), kernel, None)
    seconds, cpu = time.perf_counter() - start, time.process_time() - start_cpu
    printed, read = smt_bytes(prepared)
    return {
        "family": family,
        "n": n,
        "vcs": len(prepared.vcs),
        "frontend_seconds": round(front, 4),
        "prepare_seconds": round(seconds, 4),
        "frontend_cpu": round(front_cpu, 4),
        "vcgen_cpu": round(cpu - front_cpu, 4),  # unroll, transform, VC generation, SMT printing
        # of which: loop invariants inferred Houdini-style (race logs, and beside the user's
        # invariants): VC generation and z3 once per round
        "inference_cpu": round(_INFERENCE[0], 4),
        "prepare_cpu": round(cpu, 4),
        "smt_bytes": printed,
        "solver_input_bytes": read,
    }


def slope(points: list[tuple[float, float]]) -> float | None:
    """Least-squares slope of log y against log x."""
    pts = [(math.log(x), math.log(y)) for x, y in points if x > 0 and y > 0]
    if len(pts) < 2:
        return None
    mx = sum(x for x, _ in pts) / len(pts)
    my = sum(y for _, y in pts) / len(pts)
    den = sum((x - mx) ** 2 for x, _ in pts)
    return round(sum((x - mx) * (y - my) for x, y in pts) / den, 3) if den else None


def fit(rows: list[dict[str, object]], key: str) -> float | None:
    pts = [(float(r["n"]), float(r[key])) for r in rows]  # type: ignore[arg-type]
    big = [p for p in pts if p[0] >= 100]
    return slope(big if len(big) >= 3 else pts)


def markdown(rows: list[dict[str, object]], fits: dict[str, dict[str, float | None]]) -> str:
    lines = [
        "# VC scaling (`bench/vc_scaling.py`)",
        "",
        "Preparation = front end + VC generation + SMT printing (no solving). "
        "SMT bytes = text printed; solver input = what the solvers read over all VCs.",
        "",
        "Times in seconds: wall clock, and CPU time of the process (steadier on a shared machine);",
        "'VC gen' = preparation after the front end (unroll, transform, VCs, SMT text), of which",
        "'inference' = the loop invariants inferred Houdini-style, about the race logs (races are",
        "checked by default) and beside the user's: VC generation and z3 once per round.",
        "",
        "| family | N | VCs | front end wall | prepare wall | front end CPU | VC gen CPU | inference CPU "
        "| prepare CPU | SMT bytes | solver input bytes |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for r in rows:
        lines.append(
            f"| {r['family']} | {r['n']} | {r['vcs']} | {r['frontend_seconds']} | {r['prepare_seconds']} "
            f"| {r['frontend_cpu']} | {r['vcgen_cpu']} | {r.get('inference_cpu', '')} | {r['prepare_cpu']} "
            f"| {r['smt_bytes']} | {r['solver_input_bytes']} |"
        )
    header = "| family | " + " | ".join(SLOPES) + " |"
    lines += ["", "Log-log slopes:", "", header, "| --- |" + " ---: |" * len(SLOPES)]
    for fam, f in fits.items():
        lines.append(f"| {fam} | " + " | ".join(str(f[k]) for k in SLOPES) + " |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--max-n", type=int, default=10_000)
    ap.add_argument("--families", nargs="+", choices=sorted(FAMILIES), default=list(FAMILIES))
    ap.add_argument("--out", default=str(RESULTS / "vc_scaling"), help="results path without suffix")
    ap.add_argument("--time-limit", type=float, default=120.0, help="stop a family after a size takes longer")
    ap.add_argument("--rows", help="rebuild the results from the JSON rows a run printed (one a line)")
    args = ap.parse_args(argv)
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 1000))  # the default: no hidden help
    rows: list[dict[str, object]] = []
    if args.rows:
        lines = Path(args.rows).read_text(encoding="utf-8").splitlines()
        rows = [json.loads(x) for x in lines if x.startswith('{"family"')]
        args.families = [f for f in FAMILIES if any(r["family"] == f for r in rows)]
    with tempfile.TemporaryDirectory() as tmp:
        for fam in args.families if not args.rows else ():
            for n in sizes(args.max_n):
                row = measure(fam, n, Path(tmp))
                rows.append(row)
                print(json.dumps(row), flush=True)
                if float(row["prepare_seconds"]) > args.time_limit:  # type: ignore[arg-type]
                    break
    fits = {
        fam: {key: fit([r for r in rows if r["family"] == fam], key) for key in SLOPES}
        for fam in args.families
    }
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    meta = {"python": platform.python_version(), "machine": platform.machine(), "max_n": args.max_n}
    out.with_suffix(".json").write_text(
        json.dumps({"meta": meta, "rows": rows, "slopes": fits}, indent=2) + "\n"
    )
    out.with_suffix(".md").write_text(markdown(rows, fits))
    print(json.dumps(fits, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
