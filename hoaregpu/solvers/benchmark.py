"""Solver comparison on the specs (`hoaregpu bench`): every VC with every solver, scored
against each spec's `// expect:` line in the style of ESBMC-GPU's Table I.

Per file and solver: *verified correctly* (expected verified, every VC proved), *bug found*
(expected failed, exactly the expected VCs refuted and the rest proved), *wrong answer*
(some VC proved that should be refuted, or refuted that should be proved), *unknown* (no
contradiction but something undecided), *not supported* (the front end rejected the file).
With repeats, a file scores its worst repeat (wrong before unknown before correct).
Two solvers that prove and refute the same VC are a *disagreement*, listed loudly.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from hoaregpu.driver import PreparedKernel, prepare
from hoaregpu.errors import SpecError
from hoaregpu.expectations import classify, read_expectation
from hoaregpu.solvers.dispatch import solve_many
from hoaregpu.solvers.options import SolverOptions
from hoaregpu.solvers.outcome import Outcome, SolveTask
from hoaregpu.solvers.portfolio import DEFINITIVE, check_solver
from hoaregpu.solvers.registry import get_backend

CLASSES = ("verified correctly", "bugs found", "wrong answers", "unknown/timeout", "not supported")
_WORST = {"wrong answers": 0, "unknown/timeout": 1, "bugs found": 2, "verified correctly": 2}


@dataclass(frozen=True)
class VcRow:
    file: str
    kernel: str
    index: int  # position of the VC in its kernel, from 1
    kind: str
    line: int
    solver: str
    outcome: str
    seconds: float
    repeat: int


@dataclass
class SolverScore:
    solver: str
    version: str = ""
    skipped: str | None = None  # why the solver was not run
    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(CLASSES, 0))
    vc_seconds: float = 0.0  # sum of per-VC times, mean over repeats
    wall_seconds: float = 0.0  # mean over repeats
    vcs: int = 0
    decided: int = 0  # VCs answered PROVED or REFUTED in every repeat
    files: dict[str, str] = field(default_factory=dict)


@dataclass
class BenchResult:
    scores: list[SolverScore]
    rows: list[VcRow]
    disagreements: list[str]
    unsupported: list[str]
    files: list[str]


def unavailable(solver: str) -> str | None:
    for name in check_solver(solver):
        reason = get_backend(name).unavailable()
        if reason is not None:
            return f"{name}: {reason}"
    return None


def version_of(solver: str) -> str:
    names = check_solver(solver)
    out = []
    for name in names:
        try:
            version = get_backend(name).version() or ""
        except Exception:
            version = ""
        out.append(f"{name} {version}".strip() if len(names) > 1 else version)
    return " + ".join(out)


def run_bench(
    paths: Sequence[str],
    solvers: Sequence[str],
    options: SolverOptions,
    repeat: int = 1,
    jobs: int = 1,
    on_start: Callable[[str, int], None] | None = None,
    on_vc: Callable[[], None] | None = None,
    on_skip: Callable[[str, str], None] | None = None,
    prepared: tuple[list[PreparedKernel], list[SpecError]] | None = None,
) -> BenchResult:
    import time

    kernels, errors = prepared if prepared is not None else prepare(paths, None)
    for s in solvers:
        check_solver(s)  # unknown names fail before any work
    unsupported = sorted({e.span.path for e in errors})
    files = sorted({k.path for k in kernels} | set(unsupported))
    expects = {f: read_expectation(f) for f in files}
    vcs = [(k, i, vc) for k in kernels for i, vc in enumerate(k.vcs, start=1)]
    rows: list[VcRow] = []
    scores: list[SolverScore] = []
    for solver in solvers:
        score = SolverScore(solver)
        scores.append(score)
        reason = unavailable(solver)
        if reason is not None:
            score.skipped = reason
            if on_skip is not None:
                on_skip(solver, reason)
            continue
        score.version = version_of(solver)
        score.vcs = len(vcs)
        tasks = [SolveTask(vc.script, solver) for _, _, vc in vcs]
        per_file: dict[str, list[str]] = {}
        decided = [True] * len(vcs)
        for r in range(1, repeat + 1):
            if on_start is not None:
                on_start(solver, r)
            start = time.perf_counter()
            results = solve_many(tasks, options, jobs, on_result=lambda _i, _r: on_vc() if on_vc else None)
            score.wall_seconds += (time.perf_counter() - start) / repeat
            by_file: dict[str, list[tuple[str, int, Outcome]]] = {}
            for n, ((k, i, vc), res) in enumerate(zip(vcs, results, strict=True)):
                kind, line = vc.origin.kind.value, vc.origin.span.line
                rows.append(
                    VcRow(k.path, k.kernel.name, i, kind, line, solver, res.outcome.value, res.seconds, r)
                )
                score.vc_seconds += res.seconds / repeat
                by_file.setdefault(k.path, []).append((kind, line, res.outcome))
                decided[n] &= res.outcome in DEFINITIVE
            for f, outs in by_file.items():
                exp = expects.get(f)
                if exp is not None:
                    per_file.setdefault(f, []).append(classify(exp, outs))
        score.decided = sum(decided)
        for f, classes in per_file.items():
            worst = min(classes, key=lambda c: _WORST[c])
            score.files[f] = worst
            score.counts[worst] += 1
        score.counts["not supported"] = len(unsupported)
        score.vc_seconds = round(score.vc_seconds, 3)
        score.wall_seconds = round(score.wall_seconds, 3)
    return BenchResult(scores, rows, find_disagreements(rows), unsupported, files)


def find_disagreements(rows: Sequence[VcRow]) -> list[str]:
    """VCs that one solver proved and another refuted (in any repeats)."""
    seen: dict[tuple[str, str, int], dict[str, set[str]]] = {}
    info: dict[tuple[str, str, int], VcRow] = {}
    for row in rows:
        if row.outcome in (Outcome.PROVED.value, Outcome.REFUTED.value):
            key = (row.file, row.kernel, row.index)
            seen.setdefault(key, {}).setdefault(row.outcome, set()).add(row.solver)
            info[key] = row
    out = []
    for key, by in seen.items():
        if len(by) > 1:
            row = info[key]
            out.append(
                f"{row.file}:{row.line} ({row.kernel}, {row.kind}): proved by "
                f"{', '.join(sorted(by['proved']))} but refuted by {', '.join(sorted(by['refuted']))}"
            )
    return sorted(out)


def cactus_points(rows: Sequence[VcRow], solver: str) -> list[float]:
    """Cumulative time after each solved VC (sorted by time): VCs decided in every repeat,
    at their median time."""
    by_vc: dict[tuple[str, str, int], list[VcRow]] = {}
    for row in rows:
        if row.solver == solver:
            by_vc.setdefault((row.file, row.kernel, row.index), []).append(row)
    times = sorted(
        statistics.median(r.seconds for r in rs)
        for rs in by_vc.values()
        if all(r.outcome in (Outcome.PROVED.value, Outcome.REFUTED.value) for r in rs)
    )
    out, total = [], 0.0
    for t in times:
        total += t
        out.append(total)
    return out
