"""Replaying a refuted VC: the model's initial `State` → lockstep run → verdict.

The state comes from `cex_model` (`state_from_model`, with `small_models` tried first).
The kernel is run from that state (`run.replay`), bounded by a step budget and a
CPU-time limit, and the VC is *confirmed* when the run violates the same clause or
barrier (same kind, same line). With write conflicts several seeds (winners) are tried.
All of it within `REPLAY_SECONDS`.

For a VC whose path goes through a loop (invariant preservation, a postcondition after a
loop, an assert or barrier in or after a loop, a nested loop's entry) the model describes
a state at a loop head or exit that only satisfies the invariant and need not be
reachable: a run that does not fail says so ("the invariant may be too weak") rather than
claiming a false alarm.
"""

from __future__ import annotations

import json
import signal
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from ..core import (
    Assert,
    Assume,
    If,
    Kernel,
    Opaque,
    Seq,
    Stmt,
    Sync,
    VarKind,
    While,
    only_checking,
    statements,
)
from ..launch import Launch
from ..prepared import KernelResult, ReplayVerdict
from ..solvers.outcome import Outcome, Value
from ..vc.generate import Query
from ..vc.kinds import Origin, VcKind
from .cex_model import MAX_THREADS, model_geometry, small_models, state_from_model
from .results import (
    ASSERTION,
    BARRIER_DIVERGENCE,
    BARRIER_INVARIANT,
    CALL_PRECONDITION,
    INADMISSIBLE,
    INDEX_BOUNDS,
    LOOP_INVARIANT,
    NARROWING,
    POSTCONDITION,
    RACE,
    STEP_BUDGET,
    UNSIGNED_WRAP,
    WRITE_CONFLICT,
    RunResult,
    Violation,
)
from .run import replay
from .values import State, inputs_of

REPLAY_STEP_BUDGET = 50_000  # lockstep steps per run
REPLAY_SECONDS = 10.0  # CPU-time limit per refuted VC, all models (main thread only)
SEEDS = 8  # seeds tried when the run has write conflicts (the winner is picked by the seed)

_KIND = {
    VcKind.POSTCONDITION: POSTCONDITION,
    VcKind.LOOP_INVARIANT_ENTRY: LOOP_INVARIANT,
    VcKind.LOOP_INVARIANT_PRESERVED: LOOP_INVARIANT,
    VcKind.BARRIER_DIVERGENCE: BARRIER_DIVERGENCE,
    VcKind.ASSERTION: ASSERTION,
    VcKind.UNSIGNED_WRAP: UNSIGNED_WRAP,
    VcKind.NARROWING: NARROWING,
    VcKind.CALL_PRECONDITION: CALL_PRECONDITION,
    VcKind.INDEX_BOUNDS: INDEX_BOUNDS,
    VcKind.DATA_RACE: RACE,
    VcKind.BARRIER_INVARIANT: BARRIER_INVARIANT,
}

ZERO_NOTE = "array cells the model does not give start at 0"
ACCESS_FACT_NOTE = "not replayed: access facts speak of the race logs, which runs do not keep"


class _Timeout(BaseException):  # not an Exception: no handler in the interpreter swallows it
    pass


@contextmanager
def _deadline(seconds: float) -> Iterator[None]:
    """Raise `_Timeout` after `seconds` of this process's CPU time (only in the main thread;
    else no limit). CPU time, not wall clock: on a loaded machine the small-model searches
    used up a wall-clock budget before the solver's own values were run, and a race that
    replays in 0.1 s went unconfirmed (a test of the showcase failed that way)."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        yield
        return

    def handler(signum: int, frame: object) -> None:
        raise _Timeout

    previous = signal.signal(signal.SIGPROF, handler)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)


# -- which statements sit inside a loop -------------------------------------------------


def _loop_lines(stmt: Stmt, seen_loop: bool, out: set[tuple[str, int]]) -> bool:
    """Add the lines of asserts and barriers inside or after a loop; return whether `stmt` has a loop."""
    if isinstance(stmt, Seq):
        for s in stmt.stmts:
            seen_loop = _loop_lines(s, seen_loop, out) or seen_loop
        return seen_loop
    if isinstance(stmt, If):
        a = _loop_lines(stmt.then, seen_loop, out)
        b = _loop_lines(stmt.orelse, seen_loop, out)
        return seen_loop or a or b
    if isinstance(stmt, Opaque):
        return _loop_lines(stmt.body, seen_loop, out)
    if isinstance(stmt, While):
        if seen_loop:  # a nested or later loop: its entry state comes from another invariant
            out.update((f.span.path, f.span.line) for f in stmt.invariants if f.span is not None)
        _loop_lines(stmt.body, True, out)
        return True
    if isinstance(stmt, Assume) and stmt.forget:
        return True  # a barrier invariant's cut: from here on, states as after a loop
    if isinstance(stmt, Assert | Sync) and seen_loop:
        for span in (stmt.span, stmt.formula.span if isinstance(stmt, Assert) else None):
            if span is not None:
                out.add((span.path, span.line))
    return seen_loop


def through_loop(kernel: Kernel, origin: Origin) -> bool:
    """Whether the VC's model may describe an arbitrary state at a loop head or after a loop
    (one only known to satisfy the invariant), not a state reachable from the initial one."""
    if origin.kind is VcKind.LOOP_INVARIANT_PRESERVED:
        return True
    lines: set[tuple[str, int]] = set()
    has_loop = _loop_lines(kernel.body, False, lines)
    if origin.kind is VcKind.POSTCONDITION:
        return has_loop
    return (origin.span.path, origin.span.line) in lines


# -- the verdict ------------------------------------------------------------------------


def _matches(v: Violation, origin: Origin) -> bool:
    # a race names two accesses: the VC's is the later one, which the run may give second; a
    # same-value write pair is no race under the default policy (races.BENIGN_WRITES), so it
    # neither confirms a race VC's refutation nor counts as a run violating its clause
    spans = (v.span, v.other_span) if v.kind == RACE else (v.span,)
    return (
        not v.benign
        and v.kind == _KIND[origin.kind]
        and any(s is not None and s.path == origin.span.path and s.line == origin.span.line for s in spans)
    )


def _violation_text(v: Violation) -> str:
    where = f" at {v.span}" if v.span else ""
    return f"{v.message}{where} [{v.kind}]"


def compact_inputs(kernel: Kernel, state: State) -> dict[str, Any]:
    """The parameters of `state` in the input format, scalars first, arrays without 0 cells."""
    full = inputs_of(kernel, state)
    scalars = {k: v for k, v in full.items() if isinstance(v, int)}
    arrays: dict[str, Any] = {}
    for p in kernel.params:
        d = kernel.decl(p)
        if d.dim == 0:
            continue
        arr = state.shared[p] if d.kind is VarKind.SHARED else state.local_arrays[p][0]
        cells = {",".join(map(str, k)): v for k, v in sorted(arr.cells.items()) if v != arr.default}
        if arr.default != 0:
            cells["*"] = arr.default
        arrays[d.display_name] = cells
    return {**scalars, **arrays}


def _inputs_text(inputs: dict[str, Any]) -> str:
    text = json.dumps(inputs, separators=(",", ":"))
    return text if len(text) <= 240 else text[:237] + "..."


def replay_counterexample(
    kernel: Kernel,
    origin: Origin,
    queries: Sequence[Query],
    values: Sequence[Value],
    *,
    threads: int | Launch | None = None,
    script: str | None = None,
    step_budget: int = REPLAY_STEP_BUDGET,
    seconds: float = REPLAY_SECONDS,
) -> ReplayVerdict:
    """Run the kernel from the state of the model; never raises (errors become the verdict).

    `kernel` must be the one the VC was generated from (after `make_monotonic`); `threads`
    is the fixed thread count the VC was generated for, if any; with `script` (the VC's
    SMT-LIB text) a model with small values is looked for first.
    """
    first: ReplayVerdict | None = None
    try:
        seen: list[list[Value]] = []

        def candidates() -> Iterator[Sequence[Value]]:
            if script is not None:
                yield from small_models(script, queries, values)
            yield values

        with _deadline(seconds):
            for vals in candidates():
                if list(vals) in seen:
                    continue
                seen.append(list(vals))
                verdict = _replay(kernel, origin, queries, vals, threads, step_budget)
                if verdict.confirmed:
                    return verdict
                first = first or verdict
        assert first is not None
        return first
    except _Timeout:
        if first is not None:
            return first
        return ReplayVerdict(False, f"replay failed: no verdict within {seconds:g} s of CPU time")
    except Exception as e:  # replay must never break `verify`
        return ReplayVerdict(False, f"replay failed: {type(e).__name__}: {e}")


def _replay(
    kernel: Kernel,
    origin: Origin,
    queries: Sequence[Query],
    values: Sequence[Value],
    fixed: int | Launch | None,
    step_budget: int,
) -> ReplayVerdict:
    if origin.kind not in _KIND:
        return ReplayVerdict(False, f"replay failed: no run-time check for {origin.kind.value} VCs")
    if len(values) != len(queries):
        return ReplayVerdict(False, "replay failed: the solver gave no values for the counterexample")
    launch = fixed if isinstance(fixed, Launch) else Launch.of_threads(fixed)
    geo = model_geometry(kernel, queries, values, launch)
    if geo is None:
        return ReplayVerdict(False, "replay failed: the model gives no thread count")
    n = geo.threads
    if n > MAX_THREADS:
        return ReplayVerdict(
            False,
            f"not reproduced by execution: the model has {n} threads (replay is capped at {MAX_THREADS})",
        )
    state = state_from_model(kernel, geo, queries, values)
    inputs = compact_inputs(kernel, state)
    loop_head = through_loop(kernel, origin)
    runs: list[RunResult] = []
    for seed in range(SEEDS):
        r = replay(kernel, geo, state, seed=seed, step_budget=step_budget)
        runs.append(r)
        if any(_matches(v, origin) for v in r.violations) or not any(
            v.kind == WRITE_CONFLICT for v in r.violations
        ):
            break
    last = runs[-1]
    shape = f"{n} thread{'s' if n != 1 else ''}" if len(geo.live) == 1 else geo.describe()
    where = f"{shape}, inputs {_inputs_text(inputs)}"
    for r in runs:
        hit = next((v for v in r.violations if _matches(v, origin)), None)
        if hit is not None:
            seed_text = f", seed {r.seed}" if r.seed else ""
            return ReplayVerdict(True, f"{_violation_text(hit)} ({where}{seed_text})", n, inputs, r)
    if last.status == INADMISSIBLE:
        why = "the state built from the model does not satisfy `requires` in execution"
        return ReplayVerdict(False, f"{why} ({ZERO_NOTE}; {where})", n, inputs, last)
    prefix = "not reproduced by execution"
    if loop_head:
        prefix += " from the initial state"
    others = [v for v in last.failures if not _matches(v, origin)]
    if any(v.kind == STEP_BUDGET for v in last.violations):
        why = f"the run hit the step budget ({step_budget} steps) first"
    elif others:
        why = f"the run fails elsewhere first: {_violation_text(others[0])}"
    elif loop_head:
        why = (
            "the invariant may be too weak (the model describes a state at a loop head or exit that "
            "only satisfies the invariant)"
        )
    else:
        why = f"the run satisfies it ({ZERO_NOTE})"
    if len(runs) > 1:
        why += f"; tried {len(runs)} seeds for the write conflicts"
    unknown = sorted(
        {s.function for s in statements(kernel.body) if isinstance(s, Opaque) and s.declared_only}
    )
    if unknown:  # hoaregpu.interp.calls: the run cannot follow the model's choices there
        names = ", ".join(f"'{f}'" for f in unknown)
        why += f"; the run draws its own values for calls of {names} (no body) and keeps memory there"
    return ReplayVerdict(False, f"{prefix}: {why} ({where})", n, inputs, last)


EVIDENCE_TRIALS = 60  # random runs tried for a VC the solver left undecided
EVIDENCE_SECONDS = 5.0
FALLBACK_SECONDS = 30.0  # random runs for a refutation whose model was not reproduced (rare; 1,024 threads)


def execution_evidence(
    kernel: Kernel, origin: Origin, threads: int | Launch | None, seconds: float = EVIDENCE_SECONDS
) -> ReplayVerdict | None:
    """For a VC the solver left undecided: random runs (as `hoaregpu test`) that violate
    that very clause, or None. A concrete violation shows the kernel wrong there (it fails:
    `VcResult.violated_by_run`); the VC itself keeps what the solver said."""
    from .testing import test_kernel

    if origin.kind not in _KIND:
        return None
    launch = threads if isinstance(threads, Launch) else Launch.of_threads(threads)
    x = launch.threads
    span = (x, x) if x is not None else (1, 4)
    kernel = only_checking(kernel, origin.span)
    # a race VC wants runs that stop at a race; any other wants runs that go on past races (the
    # E-SASSIGN nondeterminism the logic accounts for) to reach its clause
    races_fail = origin.kind is VcKind.DATA_RACE
    try:
        with _deadline(seconds):
            result = test_kernel(
                kernel,
                span,
                trials=EVIDENCE_TRIALS,
                seed=0,
                races_fail=races_fail,
                launch=launch,
                # shrinking stops early enough to keep the run found (1,024 threads: 0.1 s to
                # find a violation, 4 s to shrink its inputs)
                shrink_by=time.monotonic() + 0.8 * seconds,
                # a run ends at the violation looked for: the rest of it would only cost time
                # (the symbolic tiled matmul: 31 s for a run over K = 1,024 whose first tile
                # already violates the assertion)
                stop_on=lambda v: _matches(v, origin),
            )
    except _Timeout:
        return None
    except Exception:  # evidence is a bonus: it must never break `verify`
        return None
    run = result.counterexample
    if run is None:
        return None
    hit = next((v for v in run.failures if _matches(v, origin)), None)
    if hit is None:
        return None
    shown = json.dumps(run.inputs, separators=(",", ":"))
    geo = run.initial.geo
    shape = f"{run.threads} threads" if len(geo.live) == 1 else geo.describe()
    detail = f"{_violation_text(hit)} ({shape}, inputs {shown})"
    return ReplayVerdict(True, detail, run.threads, run.inputs, run)


def replay_results(kernels: Sequence[KernelResult]) -> list[KernelResult]:
    """`kernels` with a `replay` verdict on every refuted VC (`hoaregpu verify` without
    --no-replay), and execution evidence on undecided ones where random runs find it."""
    from dataclasses import replace

    out: list[KernelResult] = []
    for k in kernels:
        results = []
        for r in k.results:
            s = r.vc.origin.span
            if (s.path, s.line, s.col) in k.prepared.access_facts:
                if r.result.outcome is Outcome.REFUTED:
                    r = replace(r, replay=ReplayVerdict(False, ACCESS_FACT_NOTE))
            elif r.result.outcome is Outcome.REFUTED and r.replay is None:  # (approximate ones are replayed)
                program, launch = k.prepared.kernel, k.prepared.launch
                if k.prepared.race_program is not None and r.vc.origin.kind is VcKind.DATA_RACE:
                    program, launch = k.prepared.race_program
                verdict = replay_counterexample(
                    program, r.vc.origin, r.vc.queries, r.result.values, threads=launch, script=r.vc.script
                )
                if not verdict.confirmed and r.vc.origin.kind is not VcKind.DATA_RACE:
                    # the model's cells may lie outside the replayed window (a 1,024-thread tree
                    # reduction sums 2,048 of them): random runs that violate this very clause
                    # confirm the refutation too, and say that they are not the model
                    evidence = execution_evidence(
                        k.prepared.kernel, r.vc.origin, k.prepared.launch, FALLBACK_SECONDS
                    )
                    if evidence is not None:
                        why = f"a random run, not the solver's model ({verdict.detail})"
                        verdict = replace(evidence, detail=f"{evidence.detail}; {why}")
                r = replace(r, replay=verdict)
            elif r.result.outcome in (Outcome.UNKNOWN, Outcome.TIMEOUT):
                evidence = execution_evidence(k.prepared.kernel, r.vc.origin, k.prepared.launch)
                if evidence is not None:
                    r = replace(r, replay=evidence)
            results.append(r)
        out.append(replace(k, results=tuple(results)))
    return out
