"""Random testing of a kernel against its contract (`hoaregpu test`), with shrinking.

`test_kernel(kernel, threads_range, trials, seed)` draws a thread count in the range
(the kernel's fixed count when it has one) and inputs from an `InputGenerator`
(rejection sampling by default, see `generate`), runs the lockstep interpreter with all
checks, and skips inputs that violate `requires` or an `assume`. The first failing run
is shrunk: fewer threads first (smallest first), then shorter arrays, cells set to 0,
scalars and cells moved toward 0 — a candidate is kept when it is still admissible and
still fails with the same kind of violation as the original.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator

from ..core import Kernel, VarKind
from ..grid import geometry
from ..launch import THREAD_X, Coord, Launch
from ..limits import TEST_STEP_BUDGET
from .generate import InputGenerator, admissible, sampling_generator
from .results import (
    ASSUMPTION_VIOLATED,
    FAILED,
    INADMISSIBLE,
    RACE,
    STOPPED,
    WRITE_CONFLICT,
    RunResult,
    TestResult,
    Violation,
)
from .run import execute
from .values import Array, State, empty_state

SHRINK_RUNS = 400


def _failure_kind(r: RunResult, races_fail: bool = True) -> str | None:
    if r.status not in (FAILED, STOPPED):
        return None
    fs = r.failures if races_fail else [v for v in r.failures if v.kind not in (RACE, WRITE_CONFLICT)]
    if fs:
        return fs[0].kind
    return r.status if r.status == STOPPED else None


def resize(kernel: Kernel, state: State, threads: int) -> State:
    """The same inputs for another `blockDim.x` (parameters are uniform over threads)."""
    out = empty_state(kernel, state.geo.with_threads_x(threads))
    threads = out.threads
    for p in kernel.params:
        d = kernel.decl(p)
        if d.kind is VarKind.SHARED:
            out.shared[p] = state.shared[p].copy()
        elif d.dim == 0:
            out.scalars[p] = [state.scalars[p][0]] * threads
        else:
            out.local_arrays[p] = [state.local_arrays[p][0].copy() for _ in range(threads)]
    return out


def _toward_zero(v: int) -> list[int]:
    if v == 0:
        return []
    out = [0, v // 2 if v > 0 else -((-v) // 2), v - 1 if v > 0 else v + 1]
    return list(dict.fromkeys(x for x in out if abs(x) < abs(v)))


def _param_arrays(kernel: Kernel, state: State) -> Iterator[tuple[str, Array]]:
    for p in kernel.params:
        d = kernel.decl(p)
        if d.kind is VarKind.SHARED and d.dim > 0:
            yield p, state.shared[p]
        elif d.dim > 0:
            yield p, state.local_arrays[p][0]


def _with_array(kernel: Kernel, state: State, name: str, arr: Array) -> State:
    out = state.copy()
    if kernel.decl(name).kind is VarKind.SHARED:
        out.shared[name] = arr
    else:
        out.local_arrays[name] = [arr.copy() for _ in range(state.threads)]
    return out


def candidates(kernel: Kernel, state: State, min_threads: int, fixed: bool) -> Iterator[State]:
    """Smaller variants of `state`, most aggressive first."""
    if not fixed:
        for t in range(min_threads, state.geo.size(THREAD_X)):
            yield resize(kernel, state, t)
    for p in kernel.params:
        d = kernel.decl(p)
        if d.dim == 0:
            cur = state.scalars[p][0] if d.kind is VarKind.LOCAL else state.shared[p].get(())
            for v in _toward_zero(cur):
                out = state.copy()
                if d.kind is VarKind.LOCAL:
                    out.scalars[p] = [v] * state.threads
                else:
                    out.shared[p] = Array({(): v})
                yield out
    for name, arr in _param_arrays(kernel, state):
        keys = sorted(arr.cells)
        for keep in (0, len(keys) // 2, len(keys) - 1):
            if 0 <= keep < len(keys):
                yield _with_array(
                    kernel, state, name, Array({k: arr.cells[k] for k in keys[:keep]}, arr.default)
                )
        for k in keys:
            for v in _toward_zero(arr.cells[k]):
                cells = dict(arr.cells)
                cells[k] = v
                yield _with_array(kernel, state, name, Array(cells, arr.default))


def shrink(
    kernel: Kernel,
    failing: RunResult,
    min_threads: int,
    step_budget: int,
    check_races: bool,
    races_fail: bool = True,
    fixed_x: bool = False,
    deadline: float | None = None,
    stop_on: Callable[[Violation], bool] | None = None,
) -> tuple[RunResult, int]:
    """A smaller failing run (fewer threads, fewer and smaller inputs) of the same kind, within
    `SHRINK_RUNS` runs and by `deadline` (`time.monotonic()`) if given: the best one so far."""
    kind = _failure_kind(failing, races_fail)
    best = failing
    runs = 0
    improved = True
    while improved and runs < SHRINK_RUNS:
        improved = False
        for cand in candidates(kernel, best.initial, min_threads, fixed_x):
            if runs >= SHRINK_RUNS or (deadline is not None and time.monotonic() > deadline):
                break
            if not admissible(kernel, cand):
                continue
            runs += 1
            r = execute(kernel, cand.copy(), best.seed, step_budget, check_races, stop_on=stop_on)
            if _failure_kind(r, races_fail) == kind:
                best = r
                improved = True
                break
    return best, runs


def test_kernel(
    kernel: Kernel,
    threads_range: tuple[int, int] = (1, 8),
    trials: int = 100,
    seed: int = 0,
    *,
    generator: InputGenerator | None = None,
    step_budget: int = TEST_STEP_BUDGET,
    check_races: bool = True,
    shrink_failures: bool = True,
    races_fail: bool = True,
    on_run: Callable[[RunResult], None] | None = None,
    keep_going: bool = False,
    launch: Launch | None = None,
    shrink_by: float | None = None,
    stop_on: Callable[[Violation], bool] | None = None,
) -> TestResult:
    """Run `trials` random admissible inputs; stop at the first failure and shrink it.

    With `races_fail=False`, races and write conflicts (the E-SASSIGN nondeterminism the
    logic itself accounts for) are noted but do not make a run fail. `on_run` sees every
    drawn run (not the shrinking ones), so another executor can compare without drawing
    the inputs again; `keep_going` runs all trials (the first failure is still the one kept);
    `shrink_by` (a `time.monotonic()` deadline) bounds the shrinking (its best run so far is kept);
    a violation that `stop_on` selects ends its run where it happens (`execute`).
    """
    lo, hi = threads_range
    if lo < 1 or hi < lo:
        raise ValueError(f"bad thread range {threads_range}")
    gen = generator or sampling_generator
    rng = random.Random(seed)
    launch = launch or Launch()
    fixed_x = kernel.fixed_threads is not None or launch.threads is not None

    def draw(c: Coord) -> int:  # blockDim.x from the range, the other sizes small
        return rng.randint(lo, hi) if c == THREAD_X else rng.randint(1, 3)

    result = TestResult(kernel.name, seed, 0, 0, 0)
    for _ in range(trials):
        threads = geometry(kernel, launch, draw)
        run_seed = rng.randrange(2**31)
        result.trials += 1
        state = gen(kernel, threads, rng)
        if state is None:
            result.skipped += 1
            continue
        r = execute(kernel, state.copy(), run_seed, step_budget, check_races, stop_on=stop_on)
        if on_run is not None:
            on_run(r)
        for note in r.notes:
            stem = note.split(" (e.g.")[0]
            if not any(n.split(" (e.g.")[0] == stem for n in result.notes):
                result.notes.append(note)
        if r.status in (INADMISSIBLE, ASSUMPTION_VIOLATED):
            result.skipped += 1
            continue
        if _failure_kind(r, races_fail) is None:
            result.passed += 1
            for x in r.failures:
                msg = f"{x.span}: {x.message} [{x.kind}] (not counted as a failure)"
                seen = any(
                    n.startswith(f"{x.span}: ") and n.endswith(f"[{x.kind}] (not counted as a failure)")
                    for n in result.notes
                )
                if x.kind in (RACE, WRITE_CONFLICT) and not seen:
                    result.notes.append(msg)
            continue
        if result.original is None:
            result.original = r
            if shrink_failures:
                result.counterexample, result.shrink_steps = shrink(
                    kernel, r, lo, step_budget, check_races, races_fail, fixed_x, shrink_by, stop_on
                )
            else:
                result.counterexample = r
        if not keep_going:
            break
    return result


test_kernel.__test__ = False  # type: ignore[attr-defined]  # not a pytest test when imported
