"""Warm re-run of specs/ (issue 14, item 6): `hoaregpu verify specs/` twice on one fresh result
cache, against start-up.

Measures (wall clock, medians of --repeat runs except the cold one): `python -c pass`,
`hoaregpu --help`, the cold run (empty cache: every VC solved, undecided ones to their
timeout), and the warm run (every file's results in the whole-file cache,
`hoaregpu/filecache.py`: nothing is parsed or solved). The target: warm run < start-up +
0.5 s. Bytecode is written and read, as on a user's machine.

Writes bench/results/warm_rerun.json. Usage: python bench/warm_rerun.py [--jobs J] [PATH...]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HOAREGPU = [sys.executable, "-m", "hoaregpu"]


def timed(argv: list[str], env: dict[str, str]) -> tuple[float, int, str]:
    start = time.perf_counter()
    proc = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=ROOT)
    last = proc.stdout.strip().splitlines()[-1:]
    return time.perf_counter() - start, proc.returncode, last[0] if last else ""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("paths", nargs="*", default=["specs"])
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, HOAREGPU_CACHE_DIR=cache)
        env.pop("PYTHONDONTWRITEBYTECODE", None)  # as on a user's machine: imports read bytecode
        python = statistics.median(timed([sys.executable, "-c", "pass"], env)[0] for _ in range(args.repeat))
        helps = statistics.median(timed([*HOAREGPU, "--help"], env)[0] for _ in range(args.repeat))
        verify = [*HOAREGPU, "verify", *args.paths, "--jobs", str(args.jobs)]
        cold, cold_code, cold_summary = timed(verify, env)
        warms = [timed(verify, env) for _ in range(args.repeat)]
        warm = statistics.median(t for t, _, _ in warms)
        warm_code, warm_summary = warms[0][1], warms[0][2]
        entries = sum(1 for _ in Path(cache).rglob("*.json"))
        file_entries = sum(1 for _ in (Path(cache) / "files").rglob("*.pickle"))
    doc = {
        "paths": args.paths,
        "python_start_seconds": round(python, 3),
        "help_seconds": round(helps, 3),
        "cold_seconds": round(cold, 2),
        "warm_seconds": round(warm, 2),
        "warm_above_python_seconds": round(warm - python, 2),
        "warm_above_help_seconds": round(warm - helps, 2),
        "target_warm_above_startup_seconds": 0.5,
        "same_exit_code": cold_code == warm_code,
        "cold_summary": cold_summary,
        "warm_summary": warm_summary,
        "cache_entries": entries,
        "file_cache_entries": file_entries,
    }
    (ROOT / "bench" / "results" / "warm_rerun.json").write_text(json.dumps(doc, indent=2) + "\n")
    print(json.dumps(doc, indent=2))


if __name__ == "__main__":
    main()
