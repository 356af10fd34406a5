"""The Python API: `hoaregpu.verify(...)` as the command line runs it, with typed results.

    import hoaregpu
    result = hoaregpu.verify("specs/bug_off_by_one.cu", solver="z3", block_dim=(4,))
    for vc in result.failures:
        print(vc.file, vc.line, vc.kind, vc.outcome, vc.counterexample)

`verify` never raises for what is wrong with the *input* (a syntax error, an unsupported
construct, a file without kernels): those are `result.errors`, as the command line reports
them with exit code 3. It raises `ConfigError` for a bad argument (an unknown solver, sizes
below 1). A VC counts as proved only when its outcome is `Outcome.PROVED`: unknown,
timeout and solver errors are never proofs (`result.verified` is false then).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..clang_options import ClangOptions
from ..errors import ConfigError, SpecError, SpecWarning
from ..filecache import FileCache, options_fingerprint
from ..inputs import spec_files
from ..launch import Launch, parse_dims
from ..limits import DEFAULT_UNROLL
from ..prepared import KernelResult, PreparedKernel, PreparedVc, RunResult, VerifyOptions
from ..report import counterexample, render_json
from ..sarif import render_sarif
from ..solvers import Outcome
from ..solvers.executor import Executor, check_executor
from ..solvers.options import DEFAULT_STRATEGIES, SolverOptions
from ..solvers.outcome import SolverResult

Dims = tuple[int] | tuple[int, int] | tuple[int, int, int]


@dataclass(frozen=True)
class VcReport:
    """One verification condition: what it checks, where, and what the solver said."""

    kind: str  # `postcondition`, `loop-invariant-entry`, `barrier-divergence`, ... (`vc.kinds`)
    file: str
    line: int
    col: int
    rule: str  # the Hoare rule that made it (`H-CONSEQ`, `H-WHILE`, `H-SYNC`, ...)
    message: str
    outcome: Outcome  # PROVED / REFUTED / UNKNOWN / TIMEOUT / ERROR: never a bool
    solver: str
    seconds: float
    reason: str = ""  # why, for UNKNOWN / TIMEOUT / ERROR
    counterexample: tuple[str, ...] = ()  # REFUTED: the counterexample's lines
    confirmed_by_execution: bool | None = None  # REFUTED and replayed: did a run fail too?


@dataclass(frozen=True)
class KernelReport:
    name: str
    what: str  # "kernel k" or "device function f"
    file: str
    verdict: str  # verified / failed / unknown / vacuous
    vcs: tuple[VcReport, ...]
    warnings: tuple[SpecWarning, ...] = ()


@dataclass(frozen=True)
class Verification:
    """The result of `verify`: per kernel and per VC, the input errors, the exit code."""

    kernels: tuple[KernelReport, ...]
    errors: tuple[SpecError, ...]
    exit_code: int  # 0 all proved, 1 some VC refuted, 2 undecided, 3 input error
    raw: RunResult = field(compare=False, repr=False)  # the driver's result (SMT scripts, models)

    @property
    def verified(self) -> bool:
        """Every kernel of every file proved, and no input error."""
        return self.exit_code == 0

    @property
    def vcs(self) -> tuple[VcReport, ...]:
        return tuple(vc for k in self.kernels for vc in k.vcs)

    @property
    def failures(self) -> tuple[VcReport, ...]:
        """The VCs not proved: refuted or undecided."""
        return tuple(vc for vc in self.vcs if vc.outcome is not Outcome.PROVED)

    def to_json(self) -> str:
        """The document `hoaregpu verify --json` prints."""
        return render_json(self.raw)

    def to_sarif(self, root: str | Path | None = None) -> dict[str, Any]:
        """The SARIF 2.1.0 log `hoaregpu verify --sarif` writes."""
        return render_sarif(self.raw, Path(root) if root is not None else None)


def _dims(value: Dims | None, name: str) -> tuple[int | None, int | None, int | None]:
    if value is None:
        return (None, None, None)
    if isinstance(value, int):
        value = (value,)
    return parse_dims(",".join(str(int(v)) for v in value), name)


def fixed_launch(
    block_dim: Dims | None = None, grid_dim: Dims | None = None, threads: int | None = None
) -> Launch:
    """The fixed sizes of a launch, as `--blockDim`, `--gridDim` and `--threads` give them."""
    result = Launch(_dims(block_dim, "block_dim"), _dims(grid_dim, "grid_dim"))
    if threads is not None:
        if threads < 1:
            raise ConfigError(f"threads must be at least 1, not {threads}")
        result = result.merged(
            Launch.of_threads(threads), lambda name, a, b: f"threads={b} contradicts block_dim ({name} = {a})"
        )
    return result


def verify(
    paths: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
    *,
    solver: str = "z3",
    timeout: float = 10.0,
    memory_mb: int = 4096,
    seed: int = 0,
    jobs: int | None = None,
    strategies: int = DEFAULT_STRATEGIES,
    incremental: bool = False,
    block_dim: Dims | None = None,
    grid_dim: Dims | None = None,
    threads: int | None = None,
    fixed: Launch | None = None,
    unroll: int = DEFAULT_UNROLL,
    confirm: bool = False,
    cache: bool = True,
    replay: bool = True,
    solver_cmd: Sequence[str] = (),
    defines: Sequence[str] = (),
    include_dirs: Sequence[str] = (),
    on_prepared: Callable[[Sequence[PreparedKernel]], None] | None = None,
    check_races: bool = True,
    benign_writes: str = "same-value",
    on_vc: Callable[[PreparedKernel, PreparedVc, SolverResult], None] | None = None,
    executor: str | Executor = "local",
    scheduler: str | None = None,
) -> Verification:
    """Verify the kernels of files or folders (folders: every `*.cu` and `*.cl` below them).

    The options are those of `hoaregpu verify` (README, "Command-line reference"):
    - `solver`: a backend name, a list `"z3,cvc5"` or `"portfolio"`;
    - `block_dim=(16, 16)` is `--blockDim=[16,16]`, likewise `grid_dim` and `threads`
      (or `fixed`, a `Launch`, instead of the three);
    - `confirm`: a second solver family must prove every VC;
    - `strategies`: the solver's configurations run at once per VC (`--strategies`);
      `incremental`: a kernel's VCs in one solver session first (`--incremental`);
    - `replay`: run each counterexample on the interpreter to confirm it;
    - `solver_cmd`: SMT-LIB solvers by command, `"mine=/opt/bin/mysolver --smt2"`, as
      `--solver-cmd` (`hoaregpu.toml` is read too);
    - `defines=("N=8",)`, `include_dirs`: the preprocessor's `-D` and `-I`;
    - `on_prepared`: sees the kernels after lowering and VC generation, before any solver runs
      (the whole-file cache, which keeps no SMT text, is then not read);
    - `check_races`: prove race-freedom too (the default; False is `--assume-race-free`:
      the verdicts then assume it, docs/races.md).
    - `benign_writes`: which writes of one value by two threads are no race: `"same-value"`
      (every one, the default), `"unread-values"` (GPUVerify's default: only values that
      read no memory), `"none"` (`--benign-writes`, docs/races.md).
    - `on_vc(kernel, vc, answer)`: progress, called as each VC is answered (completion order);
    - `executor`: `"local"` (`jobs` worker processes here), `"dask"` (a local Dask cluster of
      `jobs` workers, or the scheduler at `scheduler="tcp://HOST:PORT"`), or an `Executor`
      such as `DaskExecutor(client=...)` (kept open: the caller closes it).
    """
    from ..solvers.config import register_user_solvers
    from ..solvers.portfolio import check_solver, confirm_members

    if isinstance(executor, str):
        check_executor(executor, scheduler)
    elif scheduler is not None:
        raise ConfigError("`scheduler` goes with executor='dask', not with an Executor object")
    if fixed is not None and (block_dim, grid_dim, threads) != (None, None, None):
        raise ConfigError("give the launch either as `fixed` or as block_dim/grid_dim/threads, not both")
    register_user_solvers(solver_cmd)
    check_solver(solver)  # an unknown name is a ConfigError before any work
    names = [os.fspath(paths)] if isinstance(paths, str | os.PathLike) else [os.fspath(p) for p in paths]
    options = VerifyOptions(
        solver=",".join(confirm_members(solver)) if confirm else solver,
        solver_options=SolverOptions(
            timeout=timeout, memory_mb=memory_mb, seed=seed, strategies=strategies, incremental=incremental
        ),
        threads=fixed if fixed is not None else fixed_launch(block_dim, grid_dim, threads),
        jobs=jobs if jobs is not None else (os.cpu_count() or 1),
        cache=cache,
        confirm=confirm,
        unroll=unroll,
        clang=ClangOptions(tuple(defines), tuple(include_dirs)),
        check_races=check_races,
        benign_writes=benign_writes,
    )
    files = list(dict.fromkeys(spec_files(names)))  # a file named twice is verified once
    file_cache = _file_cache(options, replay) if cache else None
    # the cache keeps no SMT text: whoever wants the prepared kernels gets them made
    reading = file_cache is not None and on_prepared is None
    cached = {f: hit for f in files if reading and file_cache and (hit := file_cache.get(f)) is not None}
    if on_vc is not None:
        for c in (c for hits in cached.values() for c in hits):
            for r in c.results:
                on_vc(c.prepared, r.vc, r.result)
    todo = [f for f in files if f not in cached]
    solved, errors, failed = _verify_files(todo, options, on_prepared, on_vc, executor, scheduler, replay)
    by_file = {f: [k for k in solved if k.prepared.path == f] for f in todo}
    if file_cache is not None and todo:
        from ..frontend import what_was_read

        for f in todo:
            read = what_was_read(f)
            if f not in failed and read is not None:  # keyed by what was parsed, not by the file now
                file_cache.put(f, by_file[f], *read)
    kernels = [k for f in files for k in (cached[f] if f in cached else by_file[f])]
    return from_run(RunResult(tuple(kernels), tuple(errors)))


def _verify_files(
    files: Sequence[str],
    options: VerifyOptions,
    on_prepared: Callable[[Sequence[PreparedKernel]], None] | None,
    on_vc: Callable[[PreparedKernel, PreparedVc, SolverResult], None] | None,
    executor: str | Executor,
    scheduler: str | None,
    replay: bool,
) -> tuple[list[KernelResult], list[SpecError], set[str]]:
    """The files not in the file cache, the long way (the pipeline is loaded only for them)."""
    if not files and on_prepared is None:
        return [], [], set()
    from .. import driver
    from ..solvers.executor import make_executor

    prepared: list[PreparedKernel] = []
    errors: list[SpecError] = []
    failed: set[str] = set()  # with an input error (its span may be in a header): not stored
    for f in files:
        made, file_errors = driver.prepare(
            [f], options.threads, options.unroll, options.clang, options.check_races, options.benign_writes
        )
        prepared += made
        errors += file_errors
        failed |= {f} if file_errors else set()
    if on_prepared is not None:
        on_prepared(prepared)
    run_on = make_executor(executor, options.jobs, scheduler) if isinstance(executor, str) else executor
    try:
        solved = driver.solve(prepared, replace(options, executor=run_on), on_vc=on_vc)
    finally:
        if isinstance(executor, str):  # made here; the caller's own executor stays open
            run_on.close()
    if replay:
        from ..interp.replay_cex import replay_results

        solved = replay_results(solved)
    return solved, errors, failed


def _file_cache(options: VerifyOptions, replay: bool) -> FileCache | None:
    """The whole-file cache for these options (None when a solver cannot run here: the run
    then goes the long way and reports why)."""
    fingerprint = options_fingerprint(options, replay)
    return FileCache(fingerprint, options.solver_options.timeout) if fingerprint is not None else None


def from_run(run: RunResult) -> Verification:
    kernels = []
    for k in run.kernels:
        vcs = []
        for r in k.results:
            o = r.vc.origin
            refuted = r.result.outcome is Outcome.REFUTED
            vcs.append(
                VcReport(
                    kind=o.kind.value,
                    file=o.span.path,
                    line=o.span.line,
                    col=o.span.col,
                    rule=o.rule,
                    message=o.message,
                    outcome=r.result.outcome,
                    solver=r.result.solver,
                    seconds=r.result.seconds,
                    reason=r.result.message,
                    counterexample=tuple(
                        line.strip() for line in counterexample(r.vc.queries, r.result.values)
                    )
                    if refuted
                    else (),
                    confirmed_by_execution=r.replay.confirmed if refuted and r.replay is not None else None,
                )
            )
        kernel = k.prepared.kernel
        kernels.append(
            KernelReport(kernel.name, kernel.what, k.prepared.path, k.verdict, tuple(vcs), kernel.warnings)
        )
    return Verification(tuple(kernels), run.errors, run.exit_code, run)
