"""Agreement with GPUVerify (issue 10): `hoaregpu suite` over a local copy of its test suite.

Runs every GPUVerify test kernel with the flags of its header and writes
bench/results/gpuverify_suite.md (the agreement table, every disagreement by kind, the
first blocker of each kernel not read) and gpuverify_suite.json (one row per kernel).
The suite itself never enters this repository: get it with
`git clone https://github.com/mc-imperial/gpuverify` and pass its `testsuite` folder.

Usage: python bench/gpuverify_suite.py TESTSUITE [--jobs 2] [--kernel-timeout 30] [--from-json RUN.json]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from hoaregpu.commands.suite import render, summary
from hoaregpu.suite.runner import Row, find_tests, run_suite

RESULTS = Path(__file__).resolve().parent / "results"

# what each kind of disagreement means (the runner's `why`), for the report's readers
EXPLAINED = """
How to read a disagreement (each is classified by the runner; see also the README's
"OpenCL C, and coming from GPUVerify" and docs/gpuverify-dialect.md):
- a `pass` kernel we refute only through `unsigned-wrap`: C's unsigned arithmetic wraps,
  which we check and GPUVerify does not (different semantics, ours stricter);
- a `pass` kernel refuted at a loop without invariant: GPUVerify infers invariants, we do
  not yet (issue 11); ours is incomplete, never unsound;
- a refutation confirmed by execution on a `pass` kernel is a real disagreement to study;
- an `xfail` kernel we verify is expected only for reasons we do not check yet (races,
  bounds); the runner counts those as unchecked, not as agreement.
"""


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("testsuite", type=Path)
    parser.add_argument(
        "--from-json",
        type=Path,
        metavar="FILE",
        help="write the report of a saved `hoaregpu suite --json` run",
    )
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--kernel-timeout", type=float, default=30.0)
    parser.add_argument("--timeout", type=float, default=10.0, help="per VC")
    args = parser.parse_args()
    if args.from_json is not None:
        rows = [Row(**k) for k in json.loads(args.from_json.read_text())["kernels"]]
    else:
        rows = run_suite(
            find_tests(args.testsuite),
            args.testsuite,
            jobs=args.jobs,
            timeout=args.kernel_timeout,
            solver="z3",
            vc_timeout=args.timeout,
        )
    RESULTS.mkdir(parents=True, exist_ok=True)
    doc = {"summary": summary(rows), "kernels": [r.as_dict() for r in rows]}
    (RESULTS / "gpuverify_suite.json").write_text(json.dumps(doc, indent=1) + "\n")
    head = f"{len(rows)} kernels, z3, {args.kernel_timeout:g} s per kernel."
    text = f"# hoaregpu on GPUVerify's test suite\n\n{head}\n\n"
    (RESULTS / "gpuverify_suite.md").write_text(text + render(rows) + "\n" + EXPLAINED)
    print(json.dumps(doc["summary"], indent=1))


if __name__ == "__main__":
    main()
