"""`hoaregpu suite DIR`: run a GPUVerify-style test suite and score our verdicts against its
headers (`hoaregpu/suite/`)."""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from .common import add_executor_options

if TYPE_CHECKING:
    from ..suite.runner import Row

COLUMNS = ("agree", "disagree", "undecided", "unchecked", "not read")
SUITE_EXIT = """exit codes:
  0  no disagreement (kernels not read or undecided do not count)
  1  some kernel's verdict disagrees with its header
  3  input error (no such folder, no test kernels)"""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "suite",
        help="verify every kernel.cu/kernel.cl of a GPUVerify-style suite with its header's flags "
        "and score the verdicts against the header's pass/xfail",
        epilog=SUITE_EXIT,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("dir", metavar="DIR", help="the suite's folder (tests are */kernel.cu and */kernel.cl)")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print one JSON document instead of the tables")
    out.add_argument("--csv", action="store_true", help="print one CSV row per kernel instead of the tables")
    p.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 1, help="kernels verified in parallel")
    p.add_argument(
        "--kernel-timeout", type=float, default=60.0, metavar="SECONDS", help="time limit per kernel (60)"
    )
    p.add_argument("--timeout", type=float, default=10.0, metavar="SECONDS", help="time limit per VC (10)")
    p.add_argument("--solver", default="z3", help="solver backend (z3)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument(
        "--sarif",
        metavar="FILE",
        help="also write every kernel's findings as one SARIF 2.1.0 log to FILE ('-': to standard "
        "output, instead of the tables); paths relative to the working directory",
    )
    add_executor_options(p, "kernels are verified", "one Dask task per kernel")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..errors import ConfigError
    from ..solvers.portfolio import check_solver
    from ..suite.runner import find_tests

    check_solver(args.solver)
    from ..solvers.executor import check_executor

    check_executor(args.executor, args.scheduler)
    if args.jobs < 1 or args.kernel_timeout <= 0 or args.timeout <= 0:
        raise ConfigError("--jobs, --kernel-timeout and --timeout must be positive")
    root = Path(args.dir)
    files = find_tests(root)
    if not files:
        raise ConfigError(f"no kernel.cu or kernel.cl under {root}")
    if root.is_file():
        root = root.parent
    rows = _run(files, root, args)
    if args.sarif:
        from ..sarif import write_log

        write_log(suite_sarif(rows, root), args.sarif)
        if args.sarif == "-":
            return exit_code(rows)
    if args.json:
        print(json.dumps({"summary": summary(rows), "kernels": [r.as_dict() for r in rows]}, indent=1))
    elif args.csv:
        print(to_csv(rows), end="")
    else:
        print(render(rows))
    return exit_code(rows)


def exit_code(rows: Sequence[Row]) -> int:
    return 1 if any(r.agreement == "disagree" for r in rows) else 0


NOT_VERIFIED = "the kernel was not verified: its worker timed out, failed or was lost"


def suite_sarif(rows: Sequence[Row], root: Path) -> dict[str, object]:
    """One SARIF log of the suite: each kernel's own log (refuted and undecided VCs, input
    errors, warnings), its results marked with the header's expectation and our agreement;
    a kernel without a log (timeout, no header, a lost worker) is one finding at its line 1."""
    from ..sarif import _OTHER_RULES, merge_sarif

    logs = []
    extra = []
    for r in rows:
        props = {"file": str(root / r.file), "expected": r.expected, "agreement": r.agreement}
        if r.sarif is not None:
            logs.append((r.sarif, {"expected": r.expected, "agreement": r.agreement}))
        elif r.verdict == "not read" and r.stage in ("timeout", "internal error", "dask error"):
            level = "warning" if r.stage == "timeout" else "error"
            message = f"{r.file}: not verified ({r.stage}: {r.detail})"
            extra.append(("kernel-not-verified", NOT_VERIFIED, level, message, props))
        elif r.verdict == "not read":
            message = f"{r.file}: {r.stage}: {r.detail}"
            extra.append(("input-error", _OTHER_RULES["input-error"], "error", message, props))
    return merge_sarif(logs, extra, exit_code(rows), Path.cwd().resolve())


def _run(files: Sequence[Path], root: Path, args: argparse.Namespace) -> list[Row]:
    from ..suite.runner import run_suite

    kwargs = {
        "jobs": args.jobs,
        "timeout": args.kernel_timeout,
        "solver": args.solver,
        "vc_timeout": args.timeout,
        "executor": args.executor,
        "scheduler": args.scheduler,
        "sarif_root": Path.cwd() if args.sarif else None,
    }
    if args.no_progress or not sys.stderr.isatty():
        return run_suite(files, root, **kwargs)
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    columns = (
        TextColumn("suite"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.description}"),
    )
    with Progress(*columns, transient=True) as progress:
        task = progress.add_task("", total=len(files))
        return run_suite(
            files,
            root,
            **kwargs,
            on_done=lambda r: progress.update(task, advance=1, description=f"{r.file}: {r.agreement}"),
        )


def summary(rows: Sequence[Row]) -> dict[str, object]:
    from ..suite.runner import rows_by

    read = [r for r in rows if r.verdict != "not read"]
    counted = [r for r in read if r.agreement in ("agree", "disagree")]
    agree = sum(r.agreement == "agree" for r in counted)
    return {
        "kernels": len(rows),
        "read": len(read),
        "read_share": round(len(read) / len(rows), 3) if rows else 0.0,
        "counted": len(counted),
        "agree": agree,
        "agreement": round(agree / len(counted), 3) if counted else None,
        "by_language": {lang: len(group) for lang, group in rows_by(rows, lambda r: r.language)},
        "read_by_language": {lang: len(group) for lang, group in rows_by(read, lambda r: r.language)},
        "agreements": dict(Counter(r.agreement for r in rows)),
    }


def render(rows: Sequence[Row]) -> str:
    from ..suite.runner import rows_by

    lines = [
        "| expected | kernels | " + " | ".join(COLUMNS) + " |",
        "| --- | ---: |" + " ---: |" * len(COLUMNS),
    ]
    for label, group in rows_by(rows, lambda r: r.expected):
        counts = Counter(r.agreement for r in group)
        lines.append(f"| {label} | {len(group)} | " + " | ".join(str(counts[c]) for c in COLUMNS) + " |")
    s = summary(rows)
    total = Counter(r.agreement for r in rows)
    lines.append(f"| all | {len(rows)} | " + " | ".join(str(total[c]) for c in COLUMNS) + " |")
    share = f"{100 * s['read_share']:.0f} %" if isinstance(s["read_share"], float) else "-"
    agreement = s["agreement"]
    languages = [
        f"{lang} {sum(r.verdict != 'not read' for r in group)}/{len(group)}"
        for lang, group in rows_by(rows, lambda r: r.language)
    ]
    lines += [
        "",
        f"read: {s['read']} of {s['kernels']} kernels ({share}); " + ", ".join(languages),
        f"agreement on what we check: {s['agree']} of {s['counted']}"
        + (f" ({100 * agreement:.1f} %)" if isinstance(agreement, float) else ""),
    ]
    disagreements = [r for r in rows if r.agreement == "disagree"]
    if disagreements:
        lines += ["", "disagreements:"]
        for kind, group in rows_by(disagreements, lambda r: r.why):
            lines.append(f"  {kind} ({len(group)}):")
            lines += [
                f"    {r.file}: expected {r.expected}, ours {r.verdict} {r.detail}".rstrip() for r in group
            ]
    blockers = Counter(f"{r.stage}: {r.detail}" for r in rows if r.verdict == "not read")
    if blockers:
        lines += ["", "not read (first blocker per kernel):"]
        lines += [f"  {n:4d}  {what}" for what, n in blockers.most_common(25)]
        if len(blockers) > 25:
            lines.append(f"  ... and {len(blockers) - 25} more kinds (--json or --csv lists every kernel)")
    return "\n".join(lines)


def to_csv(rows: Sequence[Row]) -> str:
    from ..suite.runner import Row

    buf = io.StringIO()
    fields = Row.columns()
    w = csv.DictWriter(buf, fieldnames=fields)
    w.writeheader()
    for r in rows:
        w.writerow(r.as_dict())
    return buf.getvalue()
