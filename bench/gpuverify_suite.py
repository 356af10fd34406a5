"""Agreement with GPUVerify (issue 10): `hoaregpu suite` over a local copy of its test suite.

Runs every GPUVerify test kernel with the flags of its header and writes
bench/results/gpuverify_suite.md (the agreement table, every disagreement by kind, the
first blocker of each kernel not read) and gpuverify_suite.json (one row per kernel).
The suite itself never enters this repository: get it with
`git clone https://github.com/mc-imperial/gpuverify` and pass its `testsuite` folder.

Usage: python bench/gpuverify_suite.py TESTSUITE [--jobs 2] [--kernel-timeout 30] [--from-json RUN.json]
                                      [--executor dask [--scheduler tcp://HOST:PORT]] [--sarif FILE]
                                      [--only-expected LABEL]... [--only GLOB]... [--name STEM]
(`--executor dask`: one Dask task per kernel, on a local cluster of --jobs workers or the
scheduler's; `--sarif FILE`: also every kernel's findings as one SARIF 2.1.0 log.
`--only-expected 'xfail:NOT_ALL_VERIFIED (race)'`: only the kernels of that header label;
`--only 'OpenCL/*race*'`: only the kernels whose path under TESTSUITE matches the glob; either
repeated keeps a kernel matching any of them, both given keep a kernel matching both. A
filtered run writes gpuverify_suite_filtered.md/.json, never over the whole suite's report,
unless `--name` names the files.)
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from dataclasses import replace
from fnmatch import fnmatchcase
from pathlib import Path

from hoaregpu.commands.suite import render, suite_sarif, summary
from hoaregpu.errors import ConfigError
from hoaregpu.sarif import write_log
from hoaregpu.suite.header import read_header
from hoaregpu.suite.runner import Row, find_tests, run_suite, semantics_of

RESULTS = Path(__file__).resolve().parent / "results"

# what each kind of disagreement means (the runner's `why`), for the report's readers
EXPLAINED = """
How to read a disagreement (each is classified by the runner; see also the README's
"OpenCL C, and coming from GPUVerify" and docs/gpuverify-dialect.md):
- a `pass` kernel we refute only through `unsigned-wrap`: C's unsigned arithmetic wraps,
  which we check and GPUVerify does not (different semantics, ours stricter);
- a `pass` kernel refuted only through `index-bounds` (and wrap) checks: GPUVerify's memory
  is flat, so `t[0][n]` is the next row there; C and hoaregpu keep an index in its row;
- a `pass` kernel refuted at a loop without invariant: GPUVerify infers invariants, we do
  not yet (issue 11); ours is incomplete, never unsound;
- a refutation confirmed by execution on a `pass` kernel is a real disagreement to study;
- an `xfail` kernel we verify is expected only for reasons we do not check yet (races,
  bounds); the runner counts those as unchecked, not as agreement.
"""

# The kernels we verify though GPUVerify expects them to fail, each looked at (a wrong
# "verified" on what we check would be a soundness bug; none is)
VERIFIED_XFAIL = {
    "CUDA/atomics/add_tid/kernel.cu": "a race (two threads may get one index from atomicAdd): "
    "races are not checked yet",
    "OpenCL/atomics/refined_atomic_abstraction/bad_local_counters/kernel.cl": "a race between work-groups "
    "(the kernel's own comment): not checked yet",
    "OpenCL/atomics/refined_atomic_abstraction/predication/kernel.cl": "a race on globalArray[12]: "
    "not checked yet",
    "OpenCL/unreachable/kernel.cl": "the only statement calls a `noreturn` function without body; GPUVerify "
    "reports the unreachable end, we have no claim to prove (nothing is verified but the empty contract)",
    "CUDA/globalarray/fail/kernel.cu": "the failure needs the host to overwrite a `__constant__` table, "
    "whose initialiser we assume (README)",
    "OpenCL/sourcelocation_tests/ensures/fail/kernel.cl": "GPUVerify checks a helper's `__ensures` for every "
    "input; we inline the helper and check it at its calls, where it holds",
}


# The pass kernels we refute without execution confirming it, each looked at: which side is
# right, or where the semantics differ
UNCONFIRMED = {
    "CUDA/annotation_tests/test_all/kernel.cu": "different semantics: `__all(e)` in an assertion is "
    "e at this and the other thread of a pair; ours quantifies the other thread over the block "
    "and, in an obligation, also proves a one-block launch, which `--gridDim=64` breaks (policy "
    "in docs/gpuverify-dialect.md; a sound over-approximation, theirs right for this launch)",
    "OpenCL/k-induction/alldifferent/kernel.cl": "theirs right: `a != b` alone is not inductive "
    "(the rotation needs all three distinct); GPUVerify proves it by 3-induction, which we "
    "do not do: ours incomplete, never unsound",
    "OpenCL/unconstrained_sizes/local_size/kernel.cl": "different launch: `--local_size=*` leaves "
    "the work-group size free but a divisor of 1024; we read `*` as no constraint and cannot "
    "prove `get_local_size(0) <= 1024` (theirs right under their flag)",
}


# The race xfail kernels we leave undecided, each looked at (docs/races.md)
_FLOAT = (
    "the racing writes store `(float)` of thread ids, an uninterpreted conversion: z3's model "
    "makes the two floats differ, execution cannot confirm it (131,072 threads; replay stops at "
    "1,024), so the refutation stays undecided (the values do differ in C: a real race, missed as undecided)"
)
UNDECIDED = {
    "CUDA/fresh_arrays/fail/struct_float/kernel.cu": _FLOAT,
    "CUDA/fresh_arrays/fail/struct_nested/kernel.cu": _FLOAT,
    "OpenCL/fresh_arrays/fail/global/kernel.cl": _FLOAT,
}


def notes(rows: list[Row]) -> str:
    lines = ["", "Kernels verified though GPUVerify expects a failure, one by one:"]
    for r in rows:
        if r.agreement == "disagree" and r.verdict == "verified":
            lines.append(f"- {r.file}: {VERIFIED_XFAIL.get(r.file, 'NOT YET EXPLAINED: look at it')}")
    lines += ["", "Pass kernels refuted without confirmation by execution, one by one:"]
    for r in rows:
        if r.agreement == "disagree" and r.why == "refuted, not confirmed by execution":
            lines.append(f"- {r.file}: {UNCONFIRMED.get(r.file, 'NOT YET EXPLAINED: look at it')}")
    undecided = [r for r in rows if r.agreement == "undecided" and r.expected != "pass"]
    if undecided:
        lines += ["", "Xfail kernels left undecided, one by one:"]
        lines += [f"- {r.file}: {UNDECIDED.get(r.file, 'NOT YET EXPLAINED: look at it')}" for r in undecided]
    return "\n".join(lines) + "\n"


def reclassified(row: Row) -> Row:
    """A saved row's disagreement classified by the runner of today (the kinds refuted are in
    its detail): a run saved before a classification was added reads as a fresh one."""
    if row.agreement != "disagree" or row.verdict != "failed" or row.why.startswith("failure confirmed"):
        return row
    semantics = semantics_of({part.split(":")[0] for part in row.detail.split(", ") if part})
    return row if semantics is None else replace(row, why=semantics)


def label_of(path: Path) -> str:
    """The header label of a test kernel (`pass`, `xfail:NOT_ALL_VERIFIED (race)`, ...)."""
    try:
        return read_header(path.read_text(encoding="utf-8", errors="replace")).label
    except ConfigError:
        return "no header"


def selected(files: Sequence[Path], root: Path, labels: Sequence[str], globs: Sequence[str]) -> list[Path]:
    """The kernels of `files` with one of the header `labels` (any, when none given) and a
    path under `root` matching one of the `globs` (any, when none given)."""
    keep = []
    for path in files:
        rel = str(path.relative_to(root)) if path != root else path.name
        if globs and not any(fnmatchcase(rel, g) for g in globs):
            continue
        if labels and label_of(path) not in labels:
            continue
        keep.append(path)
    return keep


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
    parser.add_argument("--executor", choices=("local", "dask"), default="local")
    parser.add_argument("--scheduler", metavar="tcp://HOST:PORT", help="with --executor dask")
    parser.add_argument("--sarif", metavar="FILE", help="also write the findings as SARIF 2.1.0")
    parser.add_argument(
        "--only-expected",
        action="append",
        default=[],
        metavar="LABEL",
        help="only kernels of this header label, e.g. 'xfail:NOT_ALL_VERIFIED (race)' (repeatable)",
    )
    parser.add_argument(
        "--only",
        action="append",
        default=[],
        metavar="GLOB",
        help="only kernels whose path under TESTSUITE matches, e.g. 'OpenCL/*race*' (repeatable)",
    )
    parser.add_argument("--name", metavar="STEM", help="the report's file names in bench/results/")
    args = parser.parse_args()
    filtered = bool(args.only_expected or args.only)
    stem = args.name or ("gpuverify_suite_filtered" if filtered else "gpuverify_suite")
    if args.from_json is not None:
        rows = [reclassified(Row(**k)) for k in json.loads(args.from_json.read_text())["kernels"]]
        if filtered:
            rows = [
                r
                for r in rows
                if (not args.only_expected or r.expected in args.only_expected)
                and (not args.only or any(fnmatchcase(r.file, g) for g in args.only))
            ]
    else:
        rows = run_suite(
            selected(find_tests(args.testsuite), args.testsuite, args.only_expected, args.only),
            args.testsuite,
            jobs=args.jobs,
            timeout=args.kernel_timeout,
            solver="z3",
            vc_timeout=args.timeout,
            executor=args.executor,
            scheduler=args.scheduler,
            sarif_root=Path.cwd() if args.sarif else None,
        )
    if args.sarif:
        write_log(suite_sarif(rows, args.testsuite), args.sarif)
    RESULTS.mkdir(parents=True, exist_ok=True)
    doc = {"summary": summary(rows), "kernels": [r.as_dict() for r in rows]}
    (RESULTS / f"{stem}.json").write_text(json.dumps(doc, indent=1) + "\n")
    head = f"{len(rows)} kernels, z3, {args.kernel_timeout:g} s per kernel."
    if filtered:
        labels = " or ".join(repr(label) for label in args.only_expected) or "any"
        globs = " or ".join(repr(g) for g in args.only) or "any"
        head += f" Only the kernels of header {labels} and path {globs}."
    text = f"# hoaregpu on GPUVerify's test suite\n\n{head}\n\n"
    (RESULTS / f"{stem}.md").write_text(text + render(rows) + "\n" + EXPLAINED + notes(rows))
    print(json.dumps(doc["summary"], indent=1))


if __name__ == "__main__":
    main()
