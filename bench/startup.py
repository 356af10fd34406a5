"""Start-up cost of the command line (issue 14, item 4: "fast start").

Measures, in fresh processes (medians of --repeat runs, CPU time of the child from
`getrusage` — user + system, steady on a shared machine — and wall clock):

- `python -c pass`: the interpreter's own start-up (the baseline);
- `hoaregpu --help`: target <= 1.3 x baseline + 0.15 s;
- preparing a trivial kernel as `hoaregpu verify` does, without solving (imports of the
  command line, the front end, VC generation and SMT printing, and the work itself):
  target <= baseline + 0.15 s;
- the parser's speed on a large spec (annotation-heavy, ~0.5 MB): bytes per second of
  CPU time for the front end in-process (target >= 1 MB/s), beside Clang's own parse and a
  bare walk of Clang's tree through the Python bindings (the floor of any translation).

Writes bench/results/startup.json. Run: .venv/bin/python bench/startup.py [--repeat 7]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"
HOAREGPU = [sys.executable, "-m", "hoaregpu"]  # what the `hoaregpu` script runs

TRIVIAL = """\
/*@ ensures a[threadIdx.x] == 1; */
__global__ void trivial(int *a) {
    a[threadIdx.x] = 1;
}
"""

PREPARE = (
    "from hoaregpu.cli import build_parser; build_parser(); "
    "from hoaregpu.driver import prepare; prepare({path!r}, None)"
)


def run(cmd: list[str]) -> tuple[float, float]:
    """(CPU seconds of the child, wall seconds)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


def median_of(cmd: list[str], repeat: int) -> dict[str, float]:
    runs = [run(cmd) for _ in range(repeat)]
    return {
        "cpu": round(statistics.median(c for c, _ in runs), 4),
        "wall": round(statistics.median(w for _, w in runs), 4),
    }


def large_spec(target_bytes: int) -> str:
    """One kernel per block of a loop with invariants and asserts, repeated to the size."""
    block = """\
/*@ requires n >= 0 && blockDim.x >= 1;
    ensures \\forall int j; 0 <= j < n ==> c[j] == a[j] + b[j] * {i};
*/
__global__ void kernel_{i}(const int *a, const int *b, int *c, int n) {{
    int k = threadIdx.x;
    /*@ loop invariant k % blockDim.x == threadIdx.x && k >= threadIdx.x;
        loop invariant \\forall int j; 0 <= j < n && j % blockDim.x == threadIdx.x && j < k
                           ==> c[j] == a[j] + b[j] * {i};
    */
    while (k < n) {{
        c[k] = a[k] + b[k] * {i};
        k += blockDim.x;
    }}
    //@ assert k >= n;
}}
"""
    parts: list[str] = []
    size, i = 0, 0
    while size < target_bytes:
        parts.append(block.format(i=i))
        size += len(parts[-1])
        i += 1
    return "".join(parts)


def parser_speed(text: str) -> dict[str, float]:
    """The front end's speed, and two floors under it: Clang's own parse (C++), and a bare
    walk of Clang's tree through libclang's Python bindings that reads each cursor's kind
    and line and nothing else, what any translation of the tree costs at least."""
    from hoaregpu.clang_options import ClangOptions
    from hoaregpu.frontend import parse_text
    from hoaregpu.frontend.clang import parse_translation_unit

    parse_text(large_spec(2000), "warm.cu")  # imports and libclang loaded outside the timing
    start, cpu = time.perf_counter(), time.process_time()
    parse_text(text, "large.cu")
    cpu, wall = time.process_time() - cpu, time.perf_counter() - start
    clang_cpu = time.process_time()
    tu = parse_translation_unit("large.cu", text, ClangOptions())
    clang_cpu = time.process_time() - clang_cpu
    walk_cpu, cursors = time.process_time(), 0
    stack = [tu.cursor]
    while stack:
        c = stack.pop()
        cursors += 1
        _ = (c.kind, c.extent.start.line)
        stack.extend(c.get_children())
    walk_cpu = time.process_time() - walk_cpu
    return {
        "bytes": len(text),
        "cpu": round(cpu, 3),
        "wall": round(wall, 3),
        "mb_per_s_cpu": round(len(text) / cpu / 1e6, 3),
        "clang_parse_cpu": round(clang_cpu, 3),
        "clang_parse_mb_per_s": round(len(text) / clang_cpu / 1e6, 3),
        "cursors": cursors,
        "bare_walk_cpu": round(walk_cpu, 3),
        "bare_walk_mb_per_s": round(len(text) / walk_cpu / 1e6, 3),
        "bare_walk_us_per_cursor": round(walk_cpu / cursors * 1e6, 2),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--spec-bytes", type=int, default=500_000, help="size of the large spec (0: skip)")
    ap.add_argument("--out", default=str(RESULTS / "startup.json"))
    args = ap.parse_args(argv)
    env_note = {"python": platform.python_version(), "machine": platform.machine(), "cpus": os.cpu_count()}
    with tempfile.TemporaryDirectory() as tmp:
        trivial = Path(tmp) / "trivial.cu"
        trivial.write_text(TRIVIAL, encoding="utf-8")
        base = median_of([sys.executable, "-c", "pass"], args.repeat)
        help_ = median_of([*HOAREGPU, "--help"], args.repeat)
        prep = median_of([sys.executable, "-c", PREPARE.format(path=[str(trivial)])], args.repeat)
    out: dict[str, object] = {
        "meta": {**env_note, "repeat": args.repeat},
        "python_pass": base,
        "help": help_,
        "prepare_trivial": prep,
        "targets": {
            "help_cpu_limit": round(1.3 * base["cpu"] + 0.15, 4),
            "help_cpu_ok": help_["cpu"] <= 1.3 * base["cpu"] + 0.15,
            "help_wall_limit": round(1.3 * base["wall"] + 0.15, 4),
            "help_wall_ok": help_["wall"] <= 1.3 * base["wall"] + 0.15,
            "prepare_cpu_over_python": round(prep["cpu"] - base["cpu"], 4),
            "prepare_cpu_ok": prep["cpu"] - base["cpu"] <= 0.15,
        },
    }
    if args.spec_bytes:
        out["parser"] = parser_speed(large_spec(args.spec_bytes))
    path = Path(args.out)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
