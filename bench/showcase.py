"""The functional-correctness showcase (issue 12): every kernel of specs/showcase/ and the
scans and reductions of specs/, verified as a user runs them, written to
bench/results/showcase.{json,md}.

Per spec and mode: the verdict against the file's `// expect:` line, the wall-clock time of
`hoaregpu verify --no-cache --json` (a fresh process: start-up included), the VCs, how many
came back undecided, and for a planted bug whether every refutation was confirmed by
execution (the counterexample replayed on the interpreter). Modes:

- `z3`: the default (race checks on);
- `z3 race-free`: `--assume-race-free`, functional correctness alone (the issue's targets:
  Kogge–Stone scan and tree reduction at 1,024 threads in < 2 s);
- `cvc5`: race checks on.

    .venv/bin/python bench/showcase.py [--timeout 30] [--modes z3,z3-race-free,cvc5] [SPEC ...]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from hoaregpu.expectations import mismatches, read_expectation
from hoaregpu.solvers import Outcome

ROOT = Path(__file__).resolve().parents[1]
# the scans and reductions that predate specs/showcase/
EXTRA = ["sum_kogge_stone1024.cu", "bug_sum_kogge_stone1024.cu", "sum_tree_reduction256.cu"]
MODES = {
    "z3": ["--solver", "z3"],
    "z3-race-free": ["--solver", "z3", "--assume-race-free"],
    "cvc5": ["--solver", "cvc5"],
}
TARGETS_SECONDS = {
    ("scan_kogge_stone_shared1024.cu", "z3-race-free"): 2.0,
    ("sum_kogge_stone1024.cu", "z3-race-free"): 2.0,
    ("tree_reduction1024.cu", "z3-race-free"): 2.0,
}


def specs(names: list[str]) -> list[Path]:
    if names:
        return [Path(n).resolve() for n in names]
    showcase = sorted((ROOT / "specs" / "showcase").glob("*.cu"))
    return showcase + [ROOT / "specs" / n for n in EXTRA]


def measure(path: Path, mode: str, timeout: float) -> dict[str, object]:
    command = [sys.executable, "-m", "hoaregpu", "verify", "--no-cache", "--json", "--jobs", "2"]
    command += [*MODES[mode], "--timeout", str(timeout), str(path)]
    start = time.perf_counter()
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as on a user's machine: imports read bytecode
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, env=env, check=False)
    wall = time.perf_counter() - start
    report = json.loads(done.stdout)
    vcs = [vc for k in report["kernels"] for vc in k["vcs"]]
    outcomes = [(vc["kind"], vc["line"], Outcome(vc["outcome"])) for vc in vcs]
    expected = read_expectation(str(path))
    refuted = [vc for vc in vcs if vc["outcome"] == "refuted"]
    violated = [(vc["kind"], vc["line"]) for vc in vcs if "violated_by_run" in vc]
    solver = MODES[mode][1]
    return {
        "spec": str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else path.name,
        "mode": mode,
        "verdicts": sorted({k["verdict"] for k in report["kernels"]}),
        "as_expected": expected is not None and mismatches(expected, outcomes, solver, violated) == [],
        "vcs": len(vcs),
        "undecided": sum(1 for vc in vcs if vc["outcome"] in ("unknown", "timeout")),
        "refuted": len(refuted),
        "refutations_confirmed_by_execution": sum(1 for vc in refuted if confirmed(vc)),
        "undecided_violated_by_a_run": len(violated),
        "slowest_vc_seconds": round(max((vc["seconds"] for vc in vcs), default=0.0), 3),
        "wall_seconds": round(wall, 3),
        "target_seconds": TARGETS_SECONDS.get((path.name, mode)),
    }


def confirmed(vc: dict[str, object]) -> bool:
    replay = vc.get("replay")
    return isinstance(replay, dict) and replay.get("confirmed") is True


def table(rows: list[dict[str, object]]) -> str:
    lines = [
        "| spec | mode | verdict | as expected | VCs | undecided (violated by a run) | refuted (confirmed) "
        "| slowest VC s | wall s |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        target = f" (target < {r['target_seconds']})" if r["target_seconds"] else ""
        verdicts = ", ".join(r["verdicts"])  # type: ignore[arg-type]
        lines.append(
            f"| `{r['spec']}` | {r['mode']} | {verdicts} | {'yes' if r['as_expected'] else '**no**'} "
            f"| {r['vcs']} | {r['undecided']} ({r.get('undecided_violated_by_a_run', 0)}) "
            f"| {r['refuted']} ({r['refutations_confirmed_by_execution']}) "
            f"| {r['slowest_vc_seconds']} | {r['wall_seconds']}{target} |"
        )
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--timeout", type=float, default=30.0)
    parser.add_argument("--modes", default=",".join(MODES), help="comma-separated, of: " + ", ".join(MODES))
    parser.add_argument("spec", nargs="*", help="spec files (default: specs/showcase/, the scans of specs/)")
    args = parser.parse_args()
    rows: list[dict[str, object]] = []
    for path in specs(args.spec):
        for mode in args.modes.split(","):
            rows.append(measure(path, mode, args.timeout))
            print(json.dumps(rows[-1]), flush=True)
    out = ROOT / "bench" / "results"
    out.mkdir(parents=True, exist_ok=True)
    (out / "showcase.json").write_text(json.dumps({"timeout": args.timeout, "runs": rows}, indent=2) + "\n")
    (out / "showcase.md").write_text(
        "# The functional-correctness showcase\n\n"
        "Generated by `bench/showcase.py`: `hoaregpu verify --no-cache --json --jobs 2` in a fresh "
        f"process per spec and mode (wall clock, start-up included), {args.timeout:g} s per VC, "
        "on this repository's 2-core machine.\n\n" + table(rows)
    )


if __name__ == "__main__":
    main()
