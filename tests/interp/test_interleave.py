"""Interleaving semantics (§5), races, and Theorem 5.5 as a property test."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hoaregpu.core import Kernel, Stmt
from hoaregpu.interp import run_kernel
from hoaregpu.interp.results import BARRIER_DIVERGENCE, OK, RACE, STOPPED
from hoaregpu.terms import Term

from .helpers import NTID, TID, assign, b, if_, kernel, local, seq, shared, sync, v, while_

# ---- generated race-free kernels -------------------------------------------------------
# Shared arrays a and c. In each barrier interval, each array is either "own" (thread t
# reads and writes only cell t) or "read-only" (any cell may be read, none written).
# Barriers stand at the top level only. Loops count a dedicated local down to 0.

ARRAYS = ("a", "c")
LOCALS = ("x", "y")


@st.composite
def exprs(draw: Any, modes: dict[str, str], depth: int = 2) -> Term:
    leaves: list[Term] = [TID, NTID, v("x"), v("y")]
    for name, mode in modes.items():
        if mode == "own":
            leaves.append(v(name, TID))
    choice = draw(st.integers(0, 5 if depth > 0 else 1))
    if choice == 0:
        return b("+", 0, draw(st.integers(-3, 5)))
    if choice == 1:
        return draw(st.sampled_from(leaves))
    if choice == 2:
        ro = [n for n, m in modes.items() if m == "ro"]
        if ro:
            idx = draw(exprs(modes, depth - 1))
            return v(draw(st.sampled_from(ro)), b("%", idx, NTID))
        return draw(st.sampled_from(leaves))
    op = draw(st.sampled_from(["+", "-", "*", "<", "==", "&&", "/", "%"]))
    left = draw(exprs(modes, depth - 1))
    if op in ("/", "%"):
        return b(op, left, draw(st.sampled_from([1, 2, 3, -2])))
    return b(op, left, draw(exprs(modes, depth - 1)))


@st.composite
def stmts(draw: Any, modes: dict[str, str], depth: int, line: list[int]) -> Stmt:
    line[0] += 1
    kind = draw(st.integers(0, 3 if depth > 0 else 1))
    own = [n for n, m in modes.items() if m == "own"]
    if kind == 0 and own:
        return assign(draw(st.sampled_from(own)), (TID,), draw(exprs(modes)), line=line[0])
    if kind <= 1:
        return assign(draw(st.sampled_from(LOCALS)), (), draw(exprs(modes)), line=line[0])
    if kind == 2:
        c = draw(exprs(modes))
        then = seq(*draw(st.lists(stmts(modes, depth - 1, line), min_size=1, max_size=3)))
        orelse = seq(*draw(st.lists(stmts(modes, depth - 1, line), max_size=2)))
        return if_(c, then, orelse, line=line[0])
    counter = f"z{line[0]}"
    body = draw(st.lists(stmts(modes, depth - 1, line), min_size=1, max_size=3))
    start = draw(st.sampled_from([b("%", TID, 3), b("%", v("x"), 4), b("+", 0, 2)]))
    return seq(
        assign(counter, (), start),
        while_(b(">", v(counter), 0), seq(*body, assign(counter, (), b("-", v(counter), 1)))),
    )


def _counters(s: Stmt, out: set[str]) -> None:
    from hoaregpu.core import Assign, If, Seq, While

    if isinstance(s, Assign) and s.target.startswith("z"):
        out.add(s.target)
    elif isinstance(s, Seq):
        for c in s.stmts:
            _counters(c, out)
    elif isinstance(s, If):
        _counters(s.then, out)
        _counters(s.orelse, out)
    elif isinstance(s, While):
        _counters(s.body, out)


@st.composite
def race_free_kernels(draw: Any) -> Kernel:
    line = [0]
    parts: list[Stmt] = []
    for _ in range(draw(st.integers(1, 3))):
        modes = {n: draw(st.sampled_from(["own", "ro"])) for n in ARRAYS}
        parts += draw(st.lists(stmts(modes, 2, line), min_size=1, max_size=4))
        line[0] += 1
        parts.append(sync(line[0]))
    body = seq(*parts)
    counters: set[str] = set()
    _counters(body, counters)
    decls = [shared(n) for n in ARRAYS] + [local(n) for n in LOCALS] + [local(z) for z in sorted(counters)]
    return kernel(decls, body)


inputs = st.fixed_dictionaries({n: st.lists(st.integers(-5, 5), min_size=0, max_size=6) for n in ARRAYS})


def _final(r: Any) -> tuple[Any, Any]:
    assert r.final is not None
    shared_ = {k: sorted(a.cells.items()) for k, a in r.final.shared.items()}
    return shared_, r.final.scalars


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(race_free_kernels(), inputs, st.integers(1, 5), st.integers(0, 2**16))
def test_theorem_5_5_lockstep_equals_interleaving(
    k: Kernel, inp: dict[str, list[int]], n: int, seed: int
) -> None:
    lock = run_kernel(k, n, inp, seed=seed)
    inter = run_kernel(k, n, inp, seed=seed, semantics="interleave")
    assert lock.status == OK, lock.violations
    assert inter.status == OK, inter.violations
    assert not [x for x in lock.violations if x.kind == RACE]
    assert _final(lock) == _final(inter)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(race_free_kernels(), inputs, st.integers(2, 5), st.integers(0, 2**16), st.booleans())
def test_racy_kernels_are_reported(k: Kernel, inp: dict[str, list[int]], n: int, seed: int, ww: bool) -> None:
    racy: Stmt = (
        assign("a", (0,), b("+", TID, 100), line=99)
        if ww
        else assign("a", (TID,), b("+", v("a", b("%", b("+", TID, 1), NTID)), 1), line=99)
    )
    body = seq(k.body, racy)
    k2 = Kernel(k.name, k.params, k.decls, (), (), body)
    for semantics in ("lockstep", "interleave"):
        r = run_kernel(k2, n, inp, seed=seed, semantics=semantics)
        races = [x for x in r.violations if x.kind == RACE and not x.benign]
        assert races, (semantics, r.violations)
        assert any(x.span is not None and x.span.line == 99 for x in races)


# ---- hand-written cases -----------------------------------------------------------------


def test_interleave_barrier_divergence() -> None:
    k = kernel([shared("a")], if_(b("<", TID, 1), sync(7), line=6))
    r = run_kernel(k, 2, {"a": []}, semantics="interleave")
    assert r.status == STOPPED
    [d] = r.violations
    assert d.kind == BARRIER_DIVERGENCE and d.span is not None and d.span.line == 7 and d.threads == (0,)


def test_interleave_barriers_in_different_iterations_diverge() -> None:
    # every thread reaches the barrier, but in different loop iterations (stacks differ)
    k = kernel(
        [shared("a"), local("i")],
        seq(
            assign("i", (), 0),
            while_(b("<", v("i"), b("+", TID, 1)), seq(sync(3), assign("i", (), b("+", v("i"), 1)))),
        ),
    )
    r = run_kernel(k, 2, {"a": []}, semantics="interleave")
    assert r.status == STOPPED and r.violations[0].kind == BARRIER_DIVERGENCE
    r = run_kernel(k, 2, {"a": []})
    assert r.status == STOPPED and r.violations[0].kind == BARRIER_DIVERGENCE


def test_barrier_orders_communication() -> None:
    # a[tid] = tid; sync; b[tid] = a[(tid + 1) % ntid]  -- race-free thanks to the barrier
    k = kernel(
        [shared("a"), shared("c")],
        seq(assign("a", (TID,), TID), sync(2), assign("c", (TID,), v("a", b("%", b("+", TID, 1), NTID)))),
    )
    for seed in range(5):
        r = run_kernel(k, 4, {"a": [], "c": []}, seed=seed, semantics="interleave")
        assert r.status == OK
        assert r.final is not None and r.final.shared["c"].cells == {(0,): 1, (1,): 2, (2,): 3, (3,): 0}
    # without the barrier: a race, reported with both lines
    k2 = kernel(
        [shared("a"), shared("c")],
        seq(
            assign("a", (TID,), TID, line=1),
            assign("c", (TID,), v("a", b("%", b("+", TID, 1), NTID)), line=3),
        ),
    )
    r = run_kernel(k2, 4, {"a": [], "c": []})
    [race] = [x for x in r.violations if x.kind == RACE]
    assert race.span is not None and race.span.line == 1
    assert race.other_span is not None and race.other_span.line == 3
    assert "a[" in race.message
