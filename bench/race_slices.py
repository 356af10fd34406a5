"""Benchmark: race checks with and without their value-free slices (`vc/strengthen.py`).

The kernel is `specs/showcase/scan_blelloch8.cu` at N threads (its loops unrolled by
`verify`): its down-sweep's race checks are where z3 unfolded the arrays' contents round
after round. The race checks are solved twice: alone (each its own script, which is what
these checks got before they had slices) and with their slices tried first (what `verify`
does). Writes bench/results/race_slices.{json,md}.

Usage: .venv/bin/python bench/race_slices.py [--threads 64 256] [--timeout S] [--jobs J]
"""

from __future__ import annotations

import argparse
import json
import platform
import tempfile
import time
from pathlib import Path
from typing import Any

from hoaregpu.driver import prepare
from hoaregpu.solvers import Outcome, SolverOptions, SolveTask, solve_many
from hoaregpu.vc.kinds import VcKind

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"
SPEC = ROOT / "specs" / "showcase" / "scan_blelloch8.cu"


def kernel(n: int) -> str:
    text = SPEC.read_text(encoding="utf-8")
    text = text.replace("blockDim.x == 8", f"blockDim.x == {n}").replace("t[8]", f"t[{n}]")
    return text.replace("scan_blelloch8", f"scan_blelloch{n}")


def measure(n: int, timeout: float, jobs: int, folder: Path) -> dict[str, Any]:
    path = folder / f"scan_blelloch{n}.cu"
    path.write_text(kernel(n), encoding="utf-8")
    start = time.perf_counter()
    prepared, errors = prepare([str(path)], None)
    assert not errors, errors
    prepare_s = time.perf_counter() - start
    checks = [vc for k in prepared for vc in k.vcs if vc.origin.kind is VcKind.DATA_RACE]
    options = SolverOptions(timeout=timeout)
    row: dict[str, Any] = {"threads": n, "race_checks": len(checks), "prepare_s": round(prepare_s, 2)}
    row["with_slices"] = sum(bool(vc.slices) for vc in checks)
    for label, tasks in (
        ("alone", [SolveTask(vc.script, "z3") for vc in checks]),
        ("sliced", [SolveTask(vc.script, "z3", weaker=vc.slices) for vc in checks]),
    ):
        start = time.perf_counter()
        results = solve_many(tasks, options, jobs=jobs)
        row[f"{label}_s"] = round(time.perf_counter() - start, 2)
        row[f"{label}_proved"] = sum(r.outcome is Outcome.PROVED for r in results)
        row[f"{label}_slowest_s"] = max((r.seconds for r in results), default=0.0)
    return row


def markdown(rows: list[dict[str, Any]], timeout: float, jobs: int) -> str:
    lines = [
        "# Race checks with and without their value-free slices (`bench/race_slices.py`)",
        "",
        f"`specs/showcase/scan_blelloch8.cu` at N threads, loops unrolled; z3, {timeout:g} s per check, "
        f"{jobs} jobs. 'alone': each race check's own script; 'sliced': its slices tried first "
        "(what `verify` does).",
        "",
        "| threads | race checks | with a slice | proved alone | wall alone (s) "
        "| proved sliced | wall sliced (s) |",
        "| ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for r in rows:
        lines.append(
            f"| {r['threads']} | {r['race_checks']} | {r['with_slices']} | {r['alone_proved']} | "
            f"{r['alone_s']} | {r['sliced_proved']} | {r['sliced_s']} |"
        )
    return "\n".join(lines) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--threads", type=int, nargs="+", default=[64, 256])
    ap.add_argument("--timeout", type=float, default=20.0)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        rows = [measure(n, args.timeout, args.jobs, Path(tmp)) for n in args.threads]
    for r in rows:
        print(json.dumps(r))
    RESULTS.mkdir(parents=True, exist_ok=True)
    meta = {"machine": platform.machine(), "python": platform.python_version(), "timeout": args.timeout}
    (RESULTS / "race_slices.json").write_text(json.dumps({"meta": meta, "rows": rows}, indent=1) + "\n")
    (RESULTS / "race_slices.md").write_text(markdown(rows, args.timeout, args.jobs), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
