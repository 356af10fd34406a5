"""The initial state for replaying a refuted VC: solver model → `State`, and small models from z3.

A refuted VC comes with the values of its queries (`hoaregpu.vc.generate.Query`): the
thread count, the failing thread and indices, the uniform scalar parameters and the
initial value of every shared array cell in a small window of indices (the `replay`
queries). From them `state_from_model` builds the state the kernel starts in; array
cells the model does not give start at 0, locals start at 0 (the logic leaves them
unset).

Solver models tend to pick large numbers (`n = 80280`), which would make the run long
and leave most cells outside the window. So before replaying, `small_models` asks z3 (in
process, 2 s per query) for a model of the same script with small values: the thread
count, witnesses and scalars of the counterexample when they are small (else in 1..8 and
-16..16), initial cells in -16..16; if that run does not fail, a model with every initial
cell in 1..16 (solvers like zeros, which can hide a failure), then the solver's own model.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence

from ..core import Kernel, VarKind, VarRole
from ..grid import geometry
from ..launch import Coord, Geometry, Launch
from ..solvers.outcome import Outcome, Value
from ..vc.generate import Query
from .values import Array, State, empty_state

MAX_THREADS = 1024  # a block's worth; larger launches are not replayed (REPLAY_SECONDS bounds a run)
SMALL_MODEL_SECONDS = 2.0  # z3 time limit per small-model query
SMALL_THREADS = 8
SMALL_SCALAR = 16

# -- the model as a state -------------------------------------------------------------


def _int(v: Value) -> int | None:
    if isinstance(v, bool) or v is None:
        return None
    return v


def model_geometry(
    kernel: Kernel, queries: Sequence[Query], values: Sequence[Value], launch: Launch
) -> Geometry | None:
    """The launch the model describes: the fixed sizes, the others from the model's values of
    `blockDim.x`, `gridDim.y`, ... (None when the model lacks one, or gives one below 1)."""
    sizes = {q.label: _int(v) for q, v in zip(queries, values, strict=False) if q.state is None}

    def draw(c: Coord) -> int:
        v = sizes.get(c.size_term_name)
        if v is None or v < 1:
            raise _NoSize
        return v

    try:
        return geometry(kernel, launch, draw)
    except _NoSize:
        return None


class _NoSize(Exception):
    pass


def state_from_model(
    kernel: Kernel, threads: int | Geometry, queries: Sequence[Query], values: Sequence[Value]
) -> State:
    """The initial state the model describes: uniform scalar parameters and the queried initial
    shared cells; everything else 0."""
    if len(values) != len(queries):
        raise ValueError(f"{len(values)} values for {len(queries)} queries")
    state = empty_state(kernel, threads)
    threads = state.threads
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
    if q.smt.is_constant() or not q.smt.get_type().is_int_type():
        return False
    return (q.state is None and (q.smt.is_symbol() or q.label == "blockDim.x")) or bool(
        q.var and q.state == "initially" and not q.arg_queries
    )


def _bounds(
    queries: Sequence[Query],
    texts: Sequence[str],
    cells: bool,
    pin: Sequence[Value] | None = None,
    cell_low: int = -SMALL_SCALAR,
    apart: bool = False,
) -> list[str]:
    """Assertions keeping the thread count, witnesses, scalar parameters (and initial cells)
    small, or (with `pin`) fixing the first three to the values of a model. With `apart`, the
    cells of each array lie in a range of their own (1..16, 17..32, ...)."""
    out: list[str] = []
    arrays: dict[str, int] = {}
    for i, (q, text) in enumerate(zip(queries, texts, strict=True)):
        if _is_head(q):
            v = _int(pin[i]) if pin is not None else None
            if v is not None:
                out.append(f"(assert (= {text} {v if v >= 0 else f'(- {-v})'}))")
                continue
            lo, hi = (1, SMALL_THREADS) if q.label == "blockDim.x" else (-SMALL_SCALAR, SMALL_SCALAR)
        elif cells and q.var and q.state == "initially" and not q.smt.is_constant():
            lo, hi = cell_low, SMALL_SCALAR
            if apart:
                shift = SMALL_SCALAR * arrays.setdefault(q.var, len(arrays))
                lo, hi = 1 + shift, SMALL_SCALAR + shift
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
    Last, the cells of each array in a range of their own, so that a value copied from one
    array into another changes the cell (a write of the value a cell already holds races
    with no read, Definition 5.4(a); with 1s everywhere a race of a stencil did not show).
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
    for apart in (False, True):
        try:
            bounds = _bounds(queries, texts, True, pin if cells else None, cell_low=1, apart=apart)
            found = _solve_bounded(script, bounds, len(queries), seconds)
        except Exception:
            return
        if found is not None:
            yield found
