"""Replaying a refuted VC: solver model → initial `State` → lockstep run → verdict.

A refuted VC comes with the values of its queries (`hoaregpu.vc.generate.Query`): the
thread count, the failing thread and indices, the uniform scalar parameters and the
initial value of every shared array cell in a small window of indices (the `replay`
queries). From them `state_from_model` builds the state the kernel starts in; array
cells the model does not give start at 0, locals start at 0 (the logic leaves them
unset). The kernel is run from that state (`run.replay`), bounded by a step budget and
a wall-clock limit, and the VC is *confirmed* when the run violates the same clause or
barrier (same kind, same line).

Solver models tend to pick large numbers (`n = 80280`), which would make the run long
and leave most cells outside the window. So before replaying, `small_models` asks z3 (in
process, 2 s per query) for a model of the same script with small values: the thread
count, witnesses and scalars of the counterexample when they are small (else in 1..8 and
-16..16), initial cells in -16..16; if that run does not fail, a model with every initial
cell in 1..16 (solvers like zeros, which can hide a failure), then the solver's own model.
With write conflicts several seeds (winners) are tried. All of it within `REPLAY_SECONDS`.

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
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..core import Assert, If, Kernel, Seq, Stmt, Sync, VarKind, VarRole, While
from ..solvers.outcome import Outcome, Value
from ..vc.generate import Query
from ..vc.kinds import Origin, VcKind
from .results import (
    ASSERTION,
    BARRIER_DIVERGENCE,
    INADMISSIBLE,
    LOOP_INVARIANT,
    POSTCONDITION,
    STEP_BUDGET,
    WRITE_CONFLICT,
    RunResult,
    Violation,
)
from .run import replay
from .values import Array, State, empty_state, inputs_of

if TYPE_CHECKING:
    from ..driver import KernelResult

REPLAY_STEP_BUDGET = 50_000  # lockstep steps per run
REPLAY_SECONDS = 10.0  # wall-clock limit per refuted VC, all models (main thread only)
MAX_THREADS = 64  # larger thread counts are not replayed
SMALL_MODEL_SECONDS = 2.0  # z3 time limit per small-model query
SMALL_THREADS = 8
SMALL_SCALAR = 16
SEEDS = 8  # seeds tried when the run has write conflicts (the winner is picked by the seed)

_KIND = {
    VcKind.POSTCONDITION: POSTCONDITION,
    VcKind.LOOP_INVARIANT_ENTRY: LOOP_INVARIANT,
    VcKind.LOOP_INVARIANT_PRESERVED: LOOP_INVARIANT,
    VcKind.BARRIER_DIVERGENCE: BARRIER_DIVERGENCE,
    VcKind.ASSERTION: ASSERTION,
}

ZERO_NOTE = "array cells the model does not give start at 0"


@dataclass(frozen=True)
class ReplayVerdict:
    """Whether running the counterexample shows the failure, and what happened."""

    confirmed: bool
    detail: str
    threads: int | None = None
    inputs: dict[str, Any] | None = None
    run: RunResult | None = None

    @property
    def note(self) -> str:
        """The report's `note:` text."""
        if self.confirmed:
            return f"confirmed by execution: {self.detail}"
        if self.detail.startswith(("replay failed", "not reproduced")):
            return self.detail
        return f"not reproduced by execution: {self.detail}"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"confirmed": self.confirmed, "detail": self.detail}
        if self.threads is not None:
            out["threads"] = self.threads
        if self.inputs is not None:
            out["inputs"] = self.inputs
        return out


class _Timeout(BaseException):  # not an Exception: no handler in the interpreter swallows it
    pass


@contextmanager
def _deadline(seconds: float) -> Iterator[None]:
    """Raise `_Timeout` after `seconds` of wall-clock time (only in the main thread; else no limit)."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        yield
        return

    def handler(signum: int, frame: object) -> None:
        raise _Timeout

    previous = signal.signal(signal.SIGALRM, handler)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


# -- the model as a state -------------------------------------------------------------


def _int(v: Value) -> int | None:
    if isinstance(v, bool) or v is None:
        return None
    return v


def model_threads(queries: Sequence[Query], values: Sequence[Value], fixed: int | None) -> int | None:
    if fixed is not None:
        return fixed
    for q, v in zip(queries, values, strict=False):
        if q.label == "blockDim.x" and q.state is None:
            return _int(v)
    return None


def state_from_model(
    kernel: Kernel, threads: int, queries: Sequence[Query], values: Sequence[Value]
) -> State:
    """The initial state the model describes: uniform scalar parameters and the queried initial
    shared cells; everything else 0."""
    if len(values) != len(queries):
        raise ValueError(f"{len(values)} values for {len(queries)} queries")
    state = empty_state(kernel, threads)
    for q, v in zip(queries, values, strict=True):
        val = _int(v)
        if not q.var or q.state != "initially" or val is None or not kernel.has_decl(q.var):
            continue
        d = kernel.decl(q.var)
        if d.kind is VarKind.SHARED:
            key = tuple(_int(values[i]) for i in q.arg_queries)
            if len(key) != d.dim or any(k is None for k in key):
                continue
            arr = state.shared.setdefault(q.var, Array())
            arr.cells[tuple(k for k in key if k is not None)] = val
        elif d.dim == 0 and d.role is VarRole.SCALAR_PARAM:
            state.scalars[q.var] = [val] * threads
    return state


# -- a small model ---------------------------------------------------------------------


def _query_texts(script: str) -> list[str] | None:
    """The SMT-LIB text of each query, from the script's final `(get-value (...))`."""
    head = "(get-value ("
    at = script.rfind(head)
    if at < 0:
        return None
    text = script[at + len(head) :]
    out: list[str] = []
    depth = 0
    start = -1
    quoted = False
    for i, ch in enumerate(text):
        if quoted:
            quoted = ch != "|"
            continue
        if ch == "|":
            quoted = True
            if start < 0:
                start = i
        elif ch == "(":
            if start < 0:
                start = i
            depth += 1
        elif ch == ")":
            if depth == 0:
                if start >= 0:
                    out.append(text[start:i])
                return out
            depth -= 1
            if depth == 0:
                out.append(text[start : i + 1])
                start = -1
        elif ch.isspace():
            if depth == 0 and start >= 0:
                out.append(text[start:i])
                start = -1
        elif start < 0:
            start = i
    return None


def _is_head(q: Query) -> bool:
    """The thread count, a witness, or a scalar parameter: the numbers a counterexample is about."""
    if q.term.is_constant() or not q.term.get_type().is_int_type():
        return False
    return (q.state is None and (q.term.is_symbol() or q.label == "blockDim.x")) or bool(
        q.var and q.state == "initially" and not q.arg_queries
    )


def _bounds(
    queries: Sequence[Query],
    texts: Sequence[str],
    cells: bool,
    pin: Sequence[Value] | None = None,
    cell_low: int = -SMALL_SCALAR,
) -> list[str]:
    """Assertions keeping the thread count, witnesses, scalar parameters (and initial cells)
    small, or (with `pin`) fixing the first three to the values of a model."""
    out: list[str] = []
    for i, (q, text) in enumerate(zip(queries, texts, strict=True)):
        if _is_head(q):
            v = _int(pin[i]) if pin is not None else None
            if v is not None:
                out.append(f"(assert (= {text} {v if v >= 0 else f'(- {-v})'}))")
                continue
            lo, hi = (1, SMALL_THREADS) if q.label == "blockDim.x" else (-SMALL_SCALAR, SMALL_SCALAR)
        elif cells and q.var and q.state == "initially" and not q.term.is_constant():
            lo, hi = cell_low, SMALL_SCALAR
        else:
            continue
        out.append(f"(assert (and (<= {lo} {text}) (<= {text} {hi})))")
    return out


def _solve_bounded(script: str, bounds: list[str], n: int, seconds: float) -> tuple[Value, ...] | None:
    import z3

    from ..solvers.binary import classify_output
    from ..solvers.options import SolverOptions

    lines = script.splitlines()
    if "(check-sat)" not in lines:
        return None
    at = lines.index("(check-sat)")
    text = "\n".join([f"(set-option :timeout {int(seconds * 1000)})", *lines[:at], *bounds, *lines[at:]])
    start = time.monotonic()
    ctx = z3.Context()  # kept alive for the call: a collected Context frees the C context
    out = z3.Z3_eval_smtlib2_string(ctx.ref(), text)
    del ctx
    answer = classify_output(out, "", 0, time.monotonic() - start, SolverOptions(timeout=seconds))
    if answer.outcome is not Outcome.REFUTED or len(answer.values) != n:
        return None
    return answer.values


def small_models(
    script: str,
    queries: Sequence[Query],
    values: Sequence[Value] | None = None,
    seconds: float = SMALL_MODEL_SECONDS,
) -> Iterator[tuple[Value, ...]]:
    """Values of `queries` in models of `script` with small numbers, from z3 in process (lazily).

    First one of: the thread count, witnesses and scalars of `values` (when small) with
    small initial cells; small scalars and cells; small scalars. Then, for variety (solvers
    like zeros, which can hide a failure), the same with every initial cell in 1..16.
    Nothing when z3 is missing or finds no model in time.
    """
    texts = _query_texts(script)
    if texts is None or len(texts) != len(queries):
        return
    pinned: Sequence[Value] | None = None
    if values is not None and len(values) == len(queries):
        head = [_int(v) for q, v in zip(queries, values, strict=True) if _is_head(q)]
        if all(h is not None and abs(h) <= MAX_THREADS for h in head):
            pinned = values
    tiers: list[tuple[bool, Sequence[Value] | None]] = [(True, pinned), (True, None), (False, None)]
    if pinned is None:
        tiers.pop(0)
    for cells, pin in tiers:
        try:
            found = _solve_bounded(script, _bounds(queries, texts, cells, pin), len(queries), seconds)
        except Exception:  # no z3, or any z3 failure: no small model
            return
        if found is not None:
            yield found
            break
    else:
        return
    try:
        bounds = _bounds(queries, texts, True, pin if cells else None, cell_low=1)
        found = _solve_bounded(script, bounds, len(queries), seconds)
    except Exception:
        return
    if found is not None:
        yield found


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
    if isinstance(stmt, While):
        if seen_loop:  # a nested or later loop: its entry state comes from another invariant
            out.update((f.span.path, f.span.line) for f in stmt.invariants if f.span is not None)
        _loop_lines(stmt.body, True, out)
        return True
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
    return (
        v.kind == _KIND[origin.kind]
        and v.span is not None
        and v.span.path == origin.span.path
        and v.span.line == origin.span.line
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
    threads: int | None = None,
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
        return ReplayVerdict(False, f"replay failed: no verdict within {seconds:g} s")
    except Exception as e:  # replay must never break `verify`
        return ReplayVerdict(False, f"replay failed: {type(e).__name__}: {e}")


def _replay(
    kernel: Kernel,
    origin: Origin,
    queries: Sequence[Query],
    values: Sequence[Value],
    fixed: int | None,
    step_budget: int,
) -> ReplayVerdict:
    if origin.kind not in _KIND:
        return ReplayVerdict(False, f"replay failed: no run-time check for {origin.kind.value} VCs")
    if len(values) != len(queries):
        return ReplayVerdict(False, "replay failed: the solver gave no values for the counterexample")
    n = model_threads(queries, values, fixed if fixed is not None else kernel.fixed_threads)
    if n is None or n < 1:
        return ReplayVerdict(False, "replay failed: the model gives no thread count")
    if n > MAX_THREADS:
        return ReplayVerdict(
            False,
            f"not reproduced by execution: the model has {n} threads (replay is capped at {MAX_THREADS})",
        )
    state = state_from_model(kernel, n, queries, values)
    inputs = compact_inputs(kernel, state)
    loop_head = through_loop(kernel, origin)
    runs: list[RunResult] = []
    for seed in range(SEEDS):
        r = replay(kernel, n, state, seed=seed, step_budget=step_budget)
        runs.append(r)
        if any(_matches(v, origin) for v in r.violations) or not any(
            v.kind == WRITE_CONFLICT for v in r.violations
        ):
            break
    last = runs[-1]
    where = f"{n} thread{'s' if n != 1 else ''}, inputs {_inputs_text(inputs)}"
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
    return ReplayVerdict(False, f"{prefix}: {why} ({where})", n, inputs, last)


def replay_results(kernels: Sequence[KernelResult]) -> list[KernelResult]:
    """`kernels` with a `replay` verdict on every refuted VC (`hoaregpu verify` without --no-replay)."""
    from dataclasses import replace

    out: list[KernelResult] = []
    for k in kernels:
        results = []
        for r in k.results:
            if r.result.outcome is Outcome.REFUTED:
                verdict = replay_counterexample(
                    k.prepared.kernel,
                    r.vc.origin,
                    r.vc.queries,
                    r.result.values,
                    threads=k.prepared.threads,
                    script=r.vc.script,
                )
                r = replace(r, replay=verdict)
            results.append(r)
        out.append(replace(k, results=tuple(results)))
    return out
