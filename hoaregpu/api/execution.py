"""`hoaregpu.run` and `hoaregpu.test`: execute a kernel on the interpreter and check its
contracts at run time, as `hoaregpu run` and `hoaregpu test` do.

    import hoaregpu
    execution = hoaregpu.run("specs/vector_add.cu", threads=4, inputs={"n": 4})
    testing = hoaregpu.test("specs/bug_off_by_one.cu", threads=(1, 8), trials=50)
    if not testing.ok:
        print(testing.counterexample.violations[0].message, testing.reproduce)

Both raise `hoaregpu.errors.HoareGpuError` for bad input (the command line's exit code 3):
`SpecError` for the file, `ConfigError` for an argument, `InputError` for `inputs`.
Races and write conflicts are warnings unless `fail_on_race`.
"""

from __future__ import annotations

import json
import os
import random
import shlex
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..clang_options import ClangOptions
from ..core import Kernel
from ..errors import ConfigError
from ..interp.results import ASSUMPTION_VIOLATED, FAILED, INADMISSIBLE, OK
from ..interp.results import RunResult as InterpRun
from ..interp.results import TestResult as InterpTest
from ..launch import Geometry, Launch
from ..limits import DEFAULT_STEP_BUDGET, LOCKSTEP, TEST_STEP_BUDGET
from ..races import with_blocks
from .verifying import Dims, fixed_launch

RACE_KINDS = frozenset({"race", "write-conflict"})  # interp.results.RACE, WRITE_CONFLICT
MAX_RUN_THREADS = 1 << 16  # the interpreter keeps a few lists per thread and steps them all
EXIT_INPUT, EXIT_UNDECIDED = 3, 2


@dataclass(frozen=True)
class RunViolation:
    """A contract violation, race, barrier divergence or run-time error seen in a run."""

    kind: str  # `postcondition`, `assertion`, `race`, `barrier-divergence`, ... (interp.results)
    message: str
    file: str | None
    line: int
    col: int
    threads: tuple[int, ...]  # the threads where it happened
    benign: bool  # an equal-value write-write race (reported, never a failure)
    failure: bool  # counts against the kernel (races: only with `fail_on_race`)


@dataclass(frozen=True)
class Execution:
    """One run of a kernel (`hoaregpu.run`)."""

    kernel: str
    status: str  # ok / failed / stopped / inadmissible / assumption-violated
    threads: int
    seed: int
    semantics: str  # lockstep / interleave
    inputs: dict[str, Any] = field(compare=False)  # the parameters' values, as `--input` JSON
    violations: tuple[RunViolation, ...]
    notes: tuple[str, ...]
    steps: int
    exit_code: int  # 0 no violation, 1 a violation (or stopped), 3 input violates `requires`
    text: str = field(compare=False, repr=False)  # the report `hoaregpu run` prints
    raw: InterpRun = field(compare=False, repr=False)

    @property
    def ok(self) -> bool:
        return self.exit_code == 0

    @property
    def failures(self) -> tuple[RunViolation, ...]:
        return tuple(v for v in self.violations if v.failure)

    def to_json(self) -> dict[str, Any]:
        """The document `hoaregpu run --json` prints."""
        from ..interp import run_to_json

        return run_to_json(self.raw)


@dataclass(frozen=True)
class NativeComparison:
    """`native=True`: the interpreter's runs compared with the source compiled natively."""

    compiler: str
    runs: int
    agree: int
    not_comparable: int
    disagree: int
    text: str  # what `hoaregpu test --native` prints about it

    @property
    def ok(self) -> bool:
        return self.disagree == 0


@dataclass(frozen=True)
class Testing:
    """Random testing of a kernel (`hoaregpu.test`)."""

    kernel: str
    trials: int  # inputs tried
    passed: int
    skipped: int  # inputs that violated `requires` or an `assume`
    counterexample: Execution | None  # the shrunk failing run
    reproduce: str | None  # a `hoaregpu run ...` command line that reruns the counterexample
    native: NativeComparison | None
    notes: tuple[str, ...]
    exit_code: int  # 0 no violation, 1 a violation or a native disagreement, 2 nothing admissible
    text: str = field(compare=False, repr=False)  # the report `hoaregpu test` prints
    raw: InterpTest = field(compare=False, repr=False)

    @property
    def ok(self) -> bool:
        return self.exit_code == 0


def select_kernel(path: str, name: str | None, clang: ClangOptions | None = None) -> Kernel:
    """Parse and lower `path`, pick the kernel, apply the monotonic-loop transform (as `verify`)."""
    from .. import access_facts
    from ..driver import load_kernels
    from ..transform import make_monotonic

    if not Path(path).is_file():
        raise ConfigError(f"no such file: {path}")
    kernels = load_kernels(path, clang)
    if name is not None:
        chosen = [k for k in kernels if k.name == name]
        if not chosen:
            names = ", ".join(k.name for k in kernels) or "none"
            raise ConfigError(f"{path} has no kernel named {name!r} (kernels: {names})")
    elif len([k for k in kernels if not k.device]) != 1:
        names = ", ".join(k.name for k in kernels) or "none"
        raise ConfigError(f"{path} has {len(kernels)} kernels ({names}); choose one with --kernel")
    else:  # the one __global__ kernel (device functions with contracts are chosen by name)
        chosen = [k for k in kernels if not k.device]
    # access facts (`\\written(a, i)`) speak of the verifier's race logs: not executed
    return make_monotonic(access_facts.without(chosen[0]))


def launch_flags(geo: Geometry) -> list[str]:
    """The `run` flags that reproduce a launch."""
    if len(geo.live) == 1:
        return ["--threads", str(geo.threads)]
    s = geo.sizes
    return [f"--blockDim=[{s[0]},{s[1]},{s[2]}]", f"--gridDim=[{s[3]},{s[4]},{s[5]}]"]


def run_exit_code(result: InterpRun, fail_on_race: bool) -> int:
    if result.status == INADMISSIBLE:
        return EXIT_INPUT
    if result.status == ASSUMPTION_VIOLATED:
        return 0
    failures = [v for v in result.failures if fail_on_race or v.kind not in RACE_KINDS]
    return 1 if failures or result.status not in (OK, FAILED) else 0


def execution(result: InterpRun, kernel: Kernel, fail_on_race: bool) -> Execution:
    from ..interp import render_run

    bugs = {id(v) for v in result.failures if fail_on_race or v.kind not in RACE_KINDS}
    return Execution(
        kernel=result.kernel,
        status=result.status,
        threads=result.threads,
        seed=result.seed,
        semantics=result.semantics,
        inputs=dict(result.inputs),
        violations=tuple(
            RunViolation(
                v.kind,
                v.message,
                v.span.path if v.span else None,
                v.span.line if v.span else 0,
                v.span.col if v.span else 0,
                tuple(v.threads),
                v.benign,
                id(v) in bugs,
            )
            for v in result.violations
        ),
        notes=tuple(result.notes),
        steps=result.steps,
        exit_code=run_exit_code(result, fail_on_race),
        text=render_run(result, kernel, frozenset() if fail_on_race else RACE_KINDS),
        raw=result,
    )


def _launch(
    block_dim: Dims | None, grid_dim: Dims | None, threads: int | None, fixed: Launch | None
) -> Launch:
    if fixed is not None:
        if (block_dim, grid_dim, threads) != (None, None, None):
            raise ConfigError("give the launch either as `fixed` or as block_dim/grid_dim/threads, not both")
        return fixed
    return fixed_launch(block_dim, grid_dim, threads)


def run(
    path: str | os.PathLike[str],
    *,
    kernel: str | None = None,
    threads: int | None = None,
    block_dim: Dims | None = None,
    grid_dim: Dims | None = None,
    fixed: Launch | None = None,
    inputs: Mapping[str, Any] | None = None,
    seed: int = 0,
    step_budget: int = DEFAULT_STEP_BUDGET,
    semantics: str = LOCKSTEP,
    fail_on_race: bool = False,
    defines: tuple[str, ...] = (),
    include_dirs: tuple[str, ...] = (),
) -> Execution:
    """Run a kernel once (`hoaregpu run`): `inputs` maps parameter names to values as
    `--input` JSON does (`{"n": 5, "a": [1, 2, 3]}`); None samples admissible ones."""
    from ..grid import geometry
    from ..interp import run_kernel
    from ..interp.solver_inputs import AutoInputs
    from ..interp.values import inputs_of

    chosen = select_kernel(os.fspath(path), kernel, ClangOptions(tuple(defines), tuple(include_dirs)))
    # blocks the kernel cannot tell apart still race on global memory (`races.with_blocks`)
    chosen, launch = with_blocks(chosen, _launch(block_dim, grid_dim, threads, fixed), runs=True)
    geo = geometry(chosen, launch)
    if geo.threads > MAX_RUN_THREADS:
        raise ConfigError(
            f"this launch has {geo.threads:,} threads; `run` executes at most {MAX_RUN_THREADS:,}"
        )
    if step_budget < 1:
        raise ConfigError(f"step_budget must be at least 1, not {step_budget}")
    given = dict(inputs) if inputs is not None else None
    if given is None:  # sampled, or from z3 models of `requires` when sampling finds nothing
        state = AutoInputs()(chosen, geo, random.Random(seed))
        given = inputs_of(chosen, state) if state is not None else None
    result = run_kernel(chosen, geo, given, seed, step_budget, semantics=semantics)
    return execution(result, chosen, fail_on_race)


def test(
    path: str | os.PathLike[str],
    *,
    kernel: str | None = None,
    threads: tuple[int, int] = (1, 8),
    block_dim: Dims | None = None,
    grid_dim: Dims | None = None,
    fixed: Launch | None = None,
    trials: int = 100,
    seed: int = 0,
    step_budget: int = TEST_STEP_BUDGET,
    fail_on_race: bool = False,
    native: bool = False,
    defines: tuple[str, ...] = (),
    include_dirs: tuple[str, ...] = (),
) -> Testing:
    """Run a kernel on `trials` random admissible inputs with thread counts in `threads`
    (a fixed blockDim.x wins), shrinking the first failing run (`hoaregpu test`).
    `native`: also run every input natively (system C/C++ compiler) and compare."""
    from ..interp import render_test, test_kernel
    from ..interp.solver_inputs import AutoInputs
    from .native_compare import native_program, native_report

    if trials < 1:
        raise ConfigError(f"trials must be at least 1, not {trials}")
    if step_budget < 1:
        raise ConfigError(f"step_budget must be at least 1, not {step_budget}")
    file = os.fspath(path)
    chosen = select_kernel(file, kernel, ClangOptions(tuple(defines), tuple(include_dirs)))
    chosen, launch = with_blocks(chosen, _launch(block_dim, grid_dim, None, fixed), runs=True)
    notes: list[str] = []
    compared, on_run = native_program(file, chosen, notes) if native else (None, None)
    result = test_kernel(
        chosen,
        threads,
        trials,
        seed,
        generator=AutoInputs(),
        step_budget=step_budget,
        races_fail=fail_on_race,
        on_run=on_run,
        launch=launch,
    )
    comparison = native_report(file, kernel, compared) if compared is not None else None
    lines = [
        *(f"note: {n}" for n in notes),
        render_test(result, chosen, frozenset() if fail_on_race else RACE_KINDS),
    ]
    ce = result.counterexample
    reproduce = None
    if ce is not None:
        parts = ["hoaregpu", "run", file, *launch_flags(ce.initial.geo)]
        parts += ["--kernel", kernel] if kernel is not None else []
        parts += ["--input", json.dumps(ce.inputs, separators=(",", ":"))]
        parts += ["--seed", str(ce.seed)] if ce.seed else []
        reproduce = " ".join(shlex.quote(p) for p in parts)
    if not result.ok:
        lines.append(f"reproduce with:\n  {reproduce}")
        code = 1
    elif comparison is not None and not comparison.ok:
        code = 1
    elif result.passed == 0:
        code = EXIT_UNDECIDED
    else:
        code = 0
    if comparison is not None:
        lines.append(comparison.text)
    if result.ok and code == EXIT_UNDECIDED:
        lines.append(f"no admissible input found in {result.trials} tries: nothing was run")
    elif code == 0:
        lines.append(f"{result.passed} runs, no violation")
    return Testing(
        kernel=chosen.name,
        trials=result.trials,
        passed=result.passed,
        skipped=result.skipped,
        counterexample=execution(ce, chosen, fail_on_race) if ce is not None else None,
        reproduce=reproduce,
        native=comparison,
        notes=tuple(notes),
        exit_code=code,
        text="\n".join(lines),
        raw=result,
    )
