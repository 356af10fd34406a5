"""What solvers read, one-shot and in sessions (`--incremental`), against kernel size (issue 14).

For the `sequential` and `nested` kernel families of `bench/vc_scaling.py` at N = 10, 30,
100, ... (up to --max-n): the bytes the solvers read over all VCs when each VC is a script of
its own (`prefix[:end] + body`, quadratic) and in one session per kernel (the prefix once,
each VC's body inside push/pop: `solvers.session.vc_commands`), with log-log slopes (from
N >= 100 when there are three such sizes). For the sizes up to --solve-n it also solves
every VC both ways with z3 (no cache, `--jobs 1`) and records the wall-clock seconds and
the verdicts (which must agree).

Writes bench/results/solver_input.{json,md}. Target: session input slope <= 1.1.

Usage: python bench/solver_input.py [--max-n 1000] [--solve-n 100] [--solver z3]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from vc_scaling import FAMILIES, fit, sizes

from hoaregpu.driver import load_kernels, prepare_kernel
from hoaregpu.solvers import SolverOptions, SolveTask, solve_many
from hoaregpu.solvers.binary import _TAIL, _WHY
from hoaregpu.solvers.session import SessionVc, vc_commands

RESULTS = Path(__file__).resolve().parent / "results"


def input_bytes(prepared: Any) -> tuple[int, int]:
    """(one-shot, session) bytes read over the kernel's VCs."""
    one_shot = sum(vc.prefix_end + len(vc.body) for vc in prepared.vcs)
    session, read = 0, 0
    for i, vc in enumerate(prepared.vcs):
        session += len(
            vc_commands(prepared.smt_prefix, read, SessionVc(i, vc.prefix_end, vc.body), _TAIL + _WHY)
        )
        read = max(read, vc.prefix_end)
    return one_shot, session


def solve(prepared: Any, solver: str, incremental: bool, timeout: float) -> tuple[float, list[str], int]:
    """Seconds, verdicts, and how many VCs a session answered (the others went one-shot)."""
    tasks = [
        SolveTask(vc.script, solver, prefix=prepared.smt_prefix, prefix_end=vc.prefix_end, body=vc.body)
        for vc in prepared.vcs
    ]
    start = time.perf_counter()
    results = solve_many(tasks, SolverOptions(timeout=timeout, incremental=incremental), jobs=1)
    in_session = sum(r.configuration == "session" for r in results)
    return round(time.perf_counter() - start, 2), [r.outcome.value for r in results], in_session


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--max-n", type=int, default=1000)
    ap.add_argument("--solve-n", type=int, default=100)
    ap.add_argument("--solver", default="z3")
    ap.add_argument("--timeout", type=float, default=10.0)
    args = ap.parse_args()
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for family in ("sequential", "nested"):
            for n in sizes(args.max_n):
                path = Path(tmp) / f"{family}_{n}.cu"
                path.write_text(FAMILIES[family](n), encoding="utf-8")
                (kernel,) = load_kernels(str(path))
                prepared = prepare_kernel(str(path), kernel, None)
                one_shot, session = input_bytes(prepared)
                row: dict[str, Any] = {
                    "family": family,
                    "n": n,
                    "vcs": len(prepared.vcs),
                    "one_shot_bytes": one_shot,
                    "session_bytes": session,
                }
                if n <= args.solve_n:
                    row["one_shot_seconds"], before, _ = solve(prepared, args.solver, False, args.timeout)
                    row["session_seconds"], after, row["answered_in_session"] = solve(
                        prepared, args.solver, True, args.timeout
                    )
                    row["verdicts_one_shot"] = dict(Counter(before))
                    row["verdicts_session"] = dict(Counter(after))
                    row["verdicts_agree"] = before == after
                rows.append(row)
                print(json.dumps(row), flush=True)
    slopes = {
        family: {
            key: fit([r for r in rows if r["family"] == family], key)
            for key in ("one_shot_bytes", "session_bytes")
        }
        for family in ("sequential", "nested")
    }
    doc = {"solver": args.solver, "rows": rows, "slopes": slopes, "target_session_slope": 1.1}
    (RESULTS / "solver_input.json").write_text(json.dumps(doc, indent=2) + "\n")
    lines = [
        "# Solver input (`bench/solver_input.py`)",
        "",
        "Bytes the solvers read over all VCs of a kernel: one script per VC (one-shot) or one session",
        f"per kernel (`--incremental`); seconds: every VC solved with {args.solver}, `--jobs 1`, no cache",
        "(in sessions, the VCs a session leaves undecided within its 2 s try are solved one-shot: the",
        "session bytes count only what the session reads).",
        "",
        "| family | N | VCs | one-shot bytes | session bytes | one-shot s | session s | verdicts agree |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    for r in rows:
        lines.append(
            f"| {r['family']} | {r['n']} | {r['vcs']} | {r['one_shot_bytes']} | {r['session_bytes']} "
            f"| {r.get('one_shot_seconds', '')} | {r.get('session_seconds', '')} "
            f"| {r.get('verdicts_agree', '')} |"
        )
    lines += [
        "",
        "Log-log slopes:",
        "",
        "| family | one-shot bytes | session bytes |",
        "| --- | ---: | ---: |",
    ]
    for family, s in slopes.items():
        lines.append(f"| {family} | {s['one_shot_bytes']} | {s['session_bytes']} |")
    (RESULTS / "solver_input.md").write_text("\n".join(lines) + "\n")
    print(json.dumps(slopes, indent=2))


if __name__ == "__main__":
    main()
