"""Running a GPUVerify-style suite: find the test kernels, verify each in a worker process
with a time limit (`worker.py`), and compare our verdict with the header's expectation.

Agreement of one kernel:

| expected | ours verified | ours failed | unknown | not read |
| --- | --- | --- | --- | --- |
| pass | agree | disagree | undecided | not read |
| xfail for what we check (assertions, divergence, races, unsaid) | disagree | agree | undecided | not read |
| xfail for what we do not check (bounds, null pointers) | unchecked | agree | undecided | not read |
| xfail:CLANG_ERROR and other tool errors | unchecked | unchecked | unchecked | agree |

A `pass` kernel we refute is a soundness alarm until execution confirms the failure (the
report says whether it did).

Where the kernels run: `jobs` at a time on this machine (`executor="local"`), or one Dask
task per kernel on a cluster (`executor="dask"`, `on_dask.py`): the task runs `run_one` on
a worker, so the worker process and its time limit are the same there.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from ..errors import ConfigError
from .header import TOOL_ERRORS, Header, read_header

TEST_NAMES = ("kernel.cu", "kernel.cl")


@dataclass(frozen=True)
class Row:
    """One test kernel: what its header expects, what we said, and whether that agrees."""

    file: str
    language: str  # "CUDA" or "OpenCL"
    expected: str  # the header's label, e.g. `pass`, `xfail:NOT_ALL_VERIFIED (race)`
    verdict: str  # verified, failed, unknown, not read
    agreement: str  # agree, disagree, undecided, unchecked, not read
    stage: str = ""  # not read: where it stopped (unsupported, clang error, timeout, ...)
    detail: str = ""  # not read: the construct or message; failed: the refuted VCs
    seconds: float = 0.0
    notes: str = ""  # GPUVerify flags ignored
    why: str = ""  # a disagreement's or an unchecked kernel's kind (see `why`)
    # the kernel's SARIF log (`run_suite(sarif_root=...)`); not a column of the tables
    sarif: dict[str, Any] | None = field(default=None, compare=False, repr=False)

    @staticmethod
    def columns() -> list[str]:
        """The fields of `as_dict`, the JSON and CSV outputs."""
        return [f.name for f in fields(Row) if f.name != "sarif"]

    def as_dict(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.columns()}


def find_tests(root: Path) -> list[Path]:
    """GPUVerify's layout: one test per folder, `kernel.cu` or `kernel.cl` (sorted). A file
    named directly is its own test."""
    if root.is_file():
        return [root]
    if not root.is_dir():
        raise ConfigError(f"no such file or folder: {root}")
    return sorted(p for name in TEST_NAMES for p in root.rglob(name))


def agreement(header: Header, verdict: str, vcs: int | None = None) -> str:
    """How our verdict compares with the header's (the table in the module docstring). A
    kernel with GPUVerify flags that change what it checks is `unchecked`, and so is an
    xfail kernel of unsaid reason in which we have nothing to prove (no assertion, barrier
    or wrap check: what GPUVerify finds there can only be a race or a bad access)."""
    if header.incomparable and verdict != "not read":
        return "unchecked"
    if header.expected == "xfail" and verdict == "verified" and not header.category and vcs == 0:
        return "unchecked"
    if header.expected == "xfail" and header.reason in TOOL_ERRORS:
        return "agree" if verdict == "not read" else "unchecked"
    if verdict == "not read":
        return "not read"
    if verdict == "unknown":
        return "undecided"
    if header.expected == "pass":
        return "agree" if verdict == "verified" else "disagree"
    if verdict == "failed":
        return "agree"
    return "disagree" if header.checked else "unchecked"


def run_one(
    path: Path, root: Path, timeout: float, solver: str, vc_timeout: float, sarif_root: Path | None = None
) -> Row:
    """One kernel in a worker process killed after `timeout` seconds. `sarif_root`: also
    return the kernel's SARIF log, paths relative to it."""
    import time

    rel = str(path.relative_to(root)) if path != root else path.name
    language = "OpenCL" if path.suffix == ".cl" else "CUDA"
    try:
        header = read_header(path.read_text(encoding="utf-8", errors="replace"))
    except ConfigError as e:
        return Row(rel, language, "no header", "not read", "not read", "no header", str(e))
    notes = " ".join(header.ignored)
    command = [sys.executable, "-m", "hoaregpu.suite.worker", str(path), "--timeout", str(vc_timeout)]
    command += ["--solver", solver]
    if sarif_root is not None:
        command += ["--sarif-root", str(sarif_root)]
    start = time.perf_counter()
    try:
        proc = subprocess.run(command, capture_output=True, text=True, timeout=timeout, env=_env())
        lines = proc.stdout.strip().splitlines()
        out: dict[str, Any] = (
            json.loads(lines[-1])
            if lines
            else {"verdict": "not read", "stage": "internal error", "detail": proc.stderr.strip()[-120:]}
        )
    except subprocess.TimeoutExpired:
        out = {"verdict": "not read", "stage": "timeout", "detail": f"more than {timeout:g} s"}
    except json.JSONDecodeError:
        out = {"verdict": "not read", "stage": "internal error", "detail": "the worker printed no result"}
    seconds = time.perf_counter() - start
    verdict = str(out["verdict"])
    detail = str(out.get("detail", "")) or ", ".join(out.get("failures", []))
    if verdict == "failed" and out.get("confirmed"):
        detail += " (confirmed by execution)"
    if verdict == "verified" and out.get("vcs") == 0:
        detail = "nothing to prove"
    vcs = out.get("vcs")
    agreed = agreement(header, verdict, vcs if isinstance(vcs, int) else None)
    return Row(
        rel,
        language,
        header.label,
        verdict,
        agreed,
        str(out.get("stage", "")),
        detail,
        round(seconds, 2),
        notes,
        why(header, out, agreed),
        out.get("sarif"),
    )


def why(header: Header, out: dict[str, Any], agreed: str) -> str:
    """What kind of disagreement (or why unchecked) a kernel is, for the report."""
    if agreed == "unchecked":
        if header.incomparable:
            return "GPUVerify flag " + " ".join(header.incomparable) + " changes what it checks"
        if header.reason in TOOL_ERRORS:
            return f"GPUVerify expects its own tool error ({header.reason})"
        return f"expected failure not checked by hoaregpu ({header.category or 'race or access'})"
    if agreed != "disagree":
        return ""
    if out["verdict"] == "verified":
        return "hoaregpu verified what GPUVerify expects to fail"
    semantics = semantics_of({f.split(":")[0] for f in out.get("failures", [])})
    if semantics is not None:
        return semantics
    if out.get("confirmed"):
        return "failure confirmed by execution"
    if out.get("loops_without_invariant"):
        return "incomplete: loops without invariant (GPUVerify infers invariants)"
    return "refuted, not confirmed by execution"


def semantics_of(kinds: set[str]) -> str | None:
    """The difference of semantics that refutations of only these kinds show, if they do."""
    if kinds and kinds <= {"unsigned-wrap", "narrowing"}:  # execution shows the wrap C allows
        return "semantics: hoaregpu's integers must not wrap, C's unsigned ones may"
    if kinds and kinds <= {"unsigned-wrap", "narrowing", "index-bounds"}:
        # GPUVerify's memory is flat bytes: `t[0][n]` is the next row there, outside its row here
        return "semantics: hoaregpu keeps indices in their rows, GPUVerify's memory is flat"
    return None


def _env() -> dict[str, str]:
    """The worker imports this very hoaregpu (also from a source checkout)."""
    env = dict(os.environ)
    here = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = here + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return env


def run_suite(
    files: Sequence[Path],
    root: Path,
    *,
    jobs: int,
    timeout: float,
    solver: str = "z3",
    vc_timeout: float = 10.0,
    on_done: Callable[[Row], None] | None = None,
    executor: str = "local",
    scheduler: str | None = None,
    sarif_root: Path | None = None,
) -> list[Row]:
    """Every test, in the order of `files`: `jobs` at a time here (`executor="local"`), or
    as Dask tasks (`executor="dask"`: a local cluster of `jobs` workers, or the cluster of
    `scheduler`). `sarif_root`: each row also carries its kernel's SARIF log."""
    from ..solvers.executor import check_executor

    check_executor(executor, scheduler)
    if executor == "dask":
        from .on_dask import run_on_dask

        return run_on_dask(files, root, jobs, scheduler, on_done, timeout, solver, vc_timeout, sarif_root)

    def one(path: Path) -> Row:
        row = run_one(path, root, timeout, solver, vc_timeout, sarif_root)
        if on_done is not None:
            on_done(row)
        return row

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        return list(pool.map(one, files))


def rows_by(rows: Sequence[Row], key: Callable[[Row], str]) -> Iterator[tuple[str, list[Row]]]:
    groups: dict[str, list[Row]] = {}
    for r in rows:
        groups.setdefault(key(r), []).append(r)
    yield from sorted(groups.items())
