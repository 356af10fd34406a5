"""Lockstep interpreter throughput: thread-steps per second at 32 and 1024 threads.

A thread-step is one statement (or loop-guard evaluation) executed by one active thread.
The kernel is a strided reduction-style loop over shared arrays:

    i = tid; s = 0;
    while (i < n) { s = s + a[i] * 3; c[i] = s % 1000 + i / 2; i = i + ntid; }
    sync; b[tid] = s;

Run: .venv/bin/python bench/interp.py   (writes bench/results/interp.json)
"""

from __future__ import annotations

import json
import platform
import sys
import time
from pathlib import Path

from hoaregpu.core import Assign, Kernel, Seq, Sync, VarDecl, VarKind, VarRole, While
from hoaregpu.interp import run_kernel
from hoaregpu.terms import Binary, BinOp, IntLit, ThreadCount, ThreadId, Var

TARGET = 1_000_000  # thread-steps/s at 1024 threads


def bench_kernel() -> Kernel:
    i, s, n = Var("i"), Var("s"), Var("n")
    body = Seq(
        (
            Assign("i", (), ThreadId()),
            Assign("s", (), IntLit(0)),
            While(
                Binary(BinOp.LT, i, n),
                Seq(
                    (
                        Assign("s", (), Binary(BinOp.ADD, s, Binary(BinOp.MUL, Var("a", (i,)), IntLit(3)))),
                        Assign(
                            "c",
                            (i,),
                            Binary(
                                BinOp.ADD, Binary(BinOp.MOD, s, IntLit(1000)), Binary(BinOp.DIV, i, IntLit(2))
                            ),
                        ),
                        Assign("i", (), Binary(BinOp.ADD, i, ThreadCount())),
                    )
                ),
            ),
            Sync(),
            Assign("b", (ThreadId(),), s),
        )
    )
    decls = (
        VarDecl("a", VarKind.SHARED, 1, VarRole.ARRAY_PARAM),
        VarDecl("b", VarKind.SHARED, 1, VarRole.ARRAY_PARAM),
        VarDecl("c", VarKind.SHARED, 1, VarRole.ARRAY_PARAM),
        VarDecl("n", VarKind.LOCAL, 0, VarRole.SCALAR_PARAM),
        VarDecl("i", VarKind.LOCAL, 0, VarRole.LOCAL),
        VarDecl("s", VarKind.LOCAL, 0, VarRole.LOCAL),
    )
    return Kernel("bench", ("a", "b", "c", "n"), decls, (), (), body)


def measure(threads: int, races: bool, min_seconds: float = 1.0) -> dict[str, float | int | bool]:
    k = bench_kernel()
    n = threads * 64
    inputs = {"a": list(range(n)), "b": [], "c": [], "n": n}
    total_steps = 0
    elapsed = 0.0
    runs = 0
    while elapsed < min_seconds:
        t0 = time.perf_counter()
        r = run_kernel(k, threads, inputs, seed=0, step_budget=10**9, check_races=races)
        elapsed += time.perf_counter() - t0
        assert r.status == "ok", r.violations
        total_steps += r.thread_steps
        runs += 1
    return {
        "threads": threads,
        "race_detection": races,
        "runs": runs,
        "thread_steps_per_run": total_steps // runs,
        "seconds": round(elapsed, 3),
        "thread_steps_per_second": int(total_steps / elapsed),
    }


def main() -> None:
    rows = [measure(t, races) for t in (32, 1024) for races in (False, True)]
    for row in rows:
        print(
            f"{row['threads']:>5} threads, races {'on ' if row['race_detection'] else 'off'}: "
            f"{row['thread_steps_per_second']:>10,} thread-steps/s"
        )
    out = {
        "benchmark": "lockstep interpreter throughput",
        "python": sys.version.split()[0],
        "machine": platform.machine(),
        "target_thread_steps_per_second_at_1024": TARGET,
        "results": rows,
    }
    path = Path(__file__).parent / "results" / "interp.json"
    path.parent.mkdir(exist_ok=True)
    path.write_text(json.dumps(out, indent=2) + "\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
