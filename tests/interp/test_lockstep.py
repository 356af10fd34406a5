"""The lockstep interpreter against hand-computed results (paper Fig. 1)."""

from __future__ import annotations

from hoaregpu.interp import run_kernel
from hoaregpu.interp.evaluate import c_div, c_mod, c_shl, c_shr
from hoaregpu.interp.results import (
    BARRIER_DIVERGENCE,
    FAILED,
    OK,
    POSTCONDITION,
    RUNTIME_ERROR,
    STEP_BUDGET,
    STOPPED,
    WRITE_CONFLICT,
)
from hoaregpu.interp.values import array_to_json

from .helpers import (
    NTID,
    TID,
    assign,
    b,
    exists,
    f,
    if_,
    kernel,
    local,
    neg,
    none_,
    seq,
    shared,
    sync,
    v,
    while_,
)


def shared_list(r, name="a"):  # type: ignore[no-untyped-def]
    assert r.final is not None
    return array_to_json(r.final.shared[name])


def test_c_arithmetic() -> None:
    assert c_div(7, 2) == 3
    assert c_div(-7, 2) == -3
    assert c_div(7, -2) == -3
    assert c_div(-7, -2) == 3
    assert c_mod(-7, 2) == -1
    assert c_mod(7, -2) == 1
    assert c_mod(-7, -2) == -1
    assert c_shl(3, 4) == 48
    assert c_shr(-7, 1) == -4  # arithmetic shift: floor, as C compilers do
    assert c_div(10**30, 3) == 333333333333333333333333333333  # unbounded


def test_assign_shared_and_local() -> None:
    k = kernel(
        [shared("a"), local("x")],
        seq(assign("x", (), b("*", TID, 2)), assign("a", (TID,), b("+", v("x"), NTID))),
    )
    r = run_kernel(k, 4, {"a": []})
    assert r.status == OK
    assert shared_list(r) == [4, 6, 8, 10]
    assert r.final is not None and r.final.scalars["x"] == [0, 2, 4, 6]


def test_division_in_program_truncates() -> None:
    k = kernel([shared("a")], assign("a", (TID,), b("%", b("-", TID, 5), 3)))
    r = run_kernel(k, 4, {"a": []})
    assert shared_list(r) == [-2, -1, 0, -2]  # -5%3, -4%3, -3%3, -2%3 in C


def test_if_runs_both_branches_in_sequence() -> None:
    # the else branch runs after the then branch and sees its write (E-IF)
    k = kernel(
        [shared("a"), shared("s")],
        if_(
            b("==", TID, 0),
            assign("s", (0,), 5),
            assign("a", (TID,), b("+", v("s", 0), TID)),
        ),
    )
    r = run_kernel(k, 3, {"a": [9, 9, 9], "s": [0]}, check_races=False)
    assert shared_list(r) == [9, 6, 7]


def test_while_runs_until_no_active_thread_holds_the_guard() -> None:
    k = kernel(
        [shared("a"), local("i")],
        seq(
            assign("i", (), TID),
            while_(
                b("<", v("i"), 3),
                seq(assign("a", (TID,), b("+", v("a", TID), 1)), assign("i", (), b("+", v("i"), 1))),
            ),
        ),
    )
    r = run_kernel(k, 5, {"a": [0, 0, 0, 0, 0]})
    assert r.status == OK
    assert shared_list(r) == [3, 2, 1, 0, 0]
    # 1 assign + 4 guard checks + 3 rounds of 2 assignments
    assert r.steps == 1 + 4 + 6
    assert r.thread_steps == 5 + (5 + 3 + 2 + 1) + 2 * (3 + 2 + 1)


def test_nonmonotonic_loop_of_section_4_1() -> None:
    """while (x[tid] == tid) { x[0] = 1; x[1] = 1; } from x = [0, 0] with 2 threads."""
    e = b("==", v("x", TID), TID)
    phi = exists(
        "i", b("&&", b("&&", b("<=", 0, v("i")), b("<", v("i"), NTID)), b("==", v("x", v("i")), v("i")))
    )
    k = kernel(
        [shared("x")],
        while_(e, seq(assign("x", (0,), 1, 3), assign("x", (1,), 1, 4)), line=2),
        requires=(f(phi, 1),),
        ensures=(f(phi, 5), f(none_(e), 6)),
    )
    r = run_kernel(k, 2, {"x": [0, 0]}, check_races=False)
    # thread 0 runs the body once; thread 1 had left at the first guard check and does not
    # come back although x[1] == 1 now: the loop ends with x = [1, 1] and none(e) false
    assert shared_list(r, "x") == [1, 1]
    assert r.status == FAILED
    [post] = r.failures
    assert post.kind == POSTCONDITION and post.span is not None and post.span.line == 6
    assert r.steps == 4  # guard, two assignments, guard


def test_barrier_divergence_reports_line_and_threads() -> None:
    k = kernel([shared("a")], if_(b("<", TID, 1), sync(7), line=6))
    r = run_kernel(k, 2, {"a": []})
    assert r.status == STOPPED and r.final is None
    [d] = r.violations
    assert d.kind == BARRIER_DIVERGENCE
    assert d.span is not None and d.span.line == 7
    assert d.threads == (0,)
    assert "thread 0" in d.message and "not by 1" in d.message


def test_sync_with_all_or_no_threads_is_fine() -> None:
    k = kernel(
        [shared("a")],
        seq(if_(b("<", TID, 10), sync(2)), if_(b(">", TID, 10), sync(3)), sync(4)),
    )
    assert run_kernel(k, 4, {"a": []}).status == OK


def test_write_conflict_is_resolved_by_seed_and_reported() -> None:
    k = kernel([shared("s")], assign("s", (0,), TID, line=3))
    seen = set()
    for seed in range(30):
        r = run_kernel(k, 3, {"s": [9]}, seed=seed, check_races=False)
        [c] = r.violations
        assert c.kind == WRITE_CONFLICT and c.span is not None and c.span.line == 3
        assert c.threads == (0, 1, 2)
        seen.add(shared_list(r, "s")[0])
        again = run_kernel(k, 3, {"s": [9]}, seed=seed, check_races=False)
        assert shared_list(again, "s") == shared_list(r, "s")  # deterministic per seed
    assert seen == {0, 1, 2}


def test_equal_value_writes_are_not_a_conflict() -> None:
    k = kernel([shared("s")], assign("s", (0,), 7, line=3))
    r = run_kernel(k, 4, {"s": [0]})
    assert r.status == OK
    assert shared_list(r, "s") == [7]
    assert all(x.benign for x in r.violations)  # reported as a benign race only
    assert r.violations


def test_step_budget() -> None:
    k = kernel([shared("a")], while_(b("==", 1, 1), assign("a", (0,), 1), line=2))
    r = run_kernel(k, 1, {"a": []}, step_budget=50)
    assert r.status == STOPPED
    [x] = r.violations
    assert x.kind == STEP_BUDGET and "step budget exhausted" in x.message


def test_division_by_zero_stops_with_thread() -> None:
    k = kernel([shared("a")], assign("a", (TID,), b("/", 10, b("-", TID, 2)), line=4))
    r = run_kernel(k, 4, {"a": []})
    assert r.status == STOPPED
    [x] = r.violations
    assert x.kind == RUNTIME_ERROR and x.threads == (2,) and x.span is not None and x.span.line == 4


def test_short_circuit_guards_reads_and_division() -> None:
    k = kernel(
        [shared("a")],
        assign("a", (TID,), b("&&", b("!=", TID, 0), b("==", b("/", 6, TID), 3))),
    )
    r = run_kernel(k, 3, {"a": []})
    assert r.status == OK
    assert shared_list(r) == [0, 0, 1]


def test_local_arrays_and_2d_shared() -> None:
    k = kernel(
        [shared("t", 2), local("buf", 1)],
        seq(
            assign("buf", (0,), TID),
            assign("buf", (1,), b("*", v("buf", 0), 10)),
            assign("t", (TID, 1), b("+", v("buf", 1), neg(v("buf", 0)))),
        ),
    )
    r = run_kernel(k, 3, {"t": {"0,0": 4}})
    assert r.final is not None
    assert array_to_json(r.final.shared["t"]) == {"0,0": 4, "0,1": 0, "1,1": 9, "2,1": 18}


def test_nested_loop_mask_shrinks() -> None:
    # inner loop count depends on the thread; outer loop twice for everyone
    k = kernel(
        [shared("a"), local("i"), local("j")],
        seq(
            assign("i", (), 0),
            while_(
                b("<", v("i"), 2),
                seq(
                    assign("j", (), 0),
                    while_(
                        b("<", v("j"), TID),
                        seq(assign("a", (TID,), b("+", v("a", TID), 1)), assign("j", (), b("+", v("j"), 1))),
                    ),
                    assign("i", (), b("+", v("i"), 1)),
                ),
            ),
        ),
    )
    r = run_kernel(k, 4, {"a": [0, 0, 0, 0]})
    assert shared_list(r) == [0, 2, 4, 6]
