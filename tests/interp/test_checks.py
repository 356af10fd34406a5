"""Run-time checks of contracts and annotations: right kind, span, threads and values."""

from __future__ import annotations

from hoaregpu.interp import render_run, replay, run_kernel
from hoaregpu.interp.results import (
    ASSERTION,
    ASSUMPTION_VIOLATED,
    FAILED,
    INADMISSIBLE,
    LOOP_INVARIANT,
    OK,
    POSTCONDITION,
    PRECONDITION,
)
from hoaregpu.interp.values import empty_state

from .helpers import (
    NTID,
    TID,
    assert_,
    assign,
    assume,
    b,
    f,
    forall,
    if_,
    kernel,
    local,
    old,
    seq,
    shared,
    v,
    while_,
)

J = v("j")


def in_range(x, hi):  # type: ignore[no-untyped-def]
    return b("&&", b("<=", 0, x), b("<", x, hi))


def incr_kernel(post_offset: int) -> object:
    return kernel(
        [shared("a"), local("n", param=True)],
        assign("a", (TID,), b("+", v("a", TID), 1), line=5),
        requires=(f(b("==", v("n"), NTID), 1),),
        ensures=(
            f(
                forall(
                    "j",
                    b("==>", in_range(J, v("n")), b("==", v("a", J), b("+", old(v("a", J)), post_offset))),
                ),
                2,
            ),
        ),
    )


def test_ensures_with_old_holds() -> None:
    r = run_kernel(incr_kernel(1), 4, {"a": [1, 2, 3, 4], "n": 4})  # type: ignore[arg-type]
    assert r.status == OK, render_run(r)
    assert not r.notes  # the quantifier was bounded by its guard


def test_violated_ensures_has_span_and_values() -> None:
    r = run_kernel(incr_kernel(2), 4, {"a": [1, 2, 3, 4], "n": 4})  # type: ignore[arg-type]
    assert r.status == FAILED
    [post] = r.failures
    assert post.kind == POSTCONDITION
    assert post.span is not None and post.span.line == 2
    values = dict(post.values)
    assert values["j"] == 0 and values["a[0]"] == 2 and values["\\old(a[0])"] == 1
    assert (
        "k.cu:2:1: error: postcondition (ensures) does not hold at threads 0-3 [postcondition]"
        in render_run(r)
    )


def test_violated_requires_is_inadmissible() -> None:
    r = run_kernel(incr_kernel(1), 4, {"a": [1, 2, 3, 4], "n": 3})  # type: ignore[arg-type]
    assert r.status == INADMISSIBLE
    [pre] = r.violations
    assert pre.kind == PRECONDITION and pre.span is not None and pre.span.line == 1
    assert pre.threads == (0, 1, 2, 3)  # n is a local: per-thread reading
    assert r.final is None and r.steps == 0


def test_assert_reports_failing_threads() -> None:
    k = kernel([shared("a")], seq(assert_(b("==", v("a", TID), 0), 9), assign("a", (TID,), 5)))
    r = run_kernel(k, 4, {"a": [0, 1, 0, 1]})
    [x] = r.failures
    assert x.kind == ASSERTION and x.span is not None and x.span.line == 9
    assert x.threads == (1, 3)
    assert dict(x.values) == {"a[1]": 1}
    assert r.final is not None  # execution goes on after a failed assert


def test_assert_uses_the_active_mask() -> None:
    k = kernel([shared("a")], if_(b("<", TID, 2), assert_(b("<", TID, 2), 4)))
    assert run_kernel(k, 4, {"a": []}).status == OK


def test_loop_invariant_checked_at_every_head_visit() -> None:
    # i starts at tid; invariant i <= 2 first breaks when thread 1 reaches 3 (third head visit)
    k = kernel(
        [shared("a"), local("i")],
        seq(
            assign("i", (), TID),
            while_(
                b("<", v("i"), 3), assign("i", (), b("+", v("i"), 1)), (f(b("<=", v("i"), 2), 11),), line=12
            ),
        ),
    )
    r = run_kernel(k, 2, {"a": []})
    [x] = r.failures
    assert x.kind == LOOP_INVARIANT and x.span is not None and x.span.line == 11
    assert x.threads == (1,)
    assert dict(x.values) == {"i@1": 3}
    assert r.steps == 1 + 4 + 3


def test_loop_invariant_with_mask_of_enclosing_if() -> None:
    # threads >= 2 never reach the loop; the invariant mentions tid < 2 only implicitly
    k = kernel(
        [shared("a"), local("i")],
        if_(
            b("<", TID, 2),
            seq(
                assign("i", (), 0),
                while_(b("<", v("i"), TID), assign("i", (), b("+", v("i"), 1)), (f(b("<=", v("i"), 1), 3),)),
            ),
        ),
    )
    assert run_kernel(k, 4, {"a": []}).status == OK


def test_loop_invariant_violated_on_entry() -> None:
    k = kernel(
        [shared("a"), local("i")],
        while_(b("<", v("i"), 0), assign("i", (), 0), (f(b("==", v("i"), 1), 21),)),
    )
    r = run_kernel(k, 3, {"a": []})
    [x] = r.failures
    assert x.kind == LOOP_INVARIANT and x.threads == (0, 1, 2) and x.span is not None and x.span.line == 21


def test_failed_assume_stops_the_run() -> None:
    k = kernel([shared("a")], seq(assume(b(">", v("a", TID), 0), 3), assign("a", (TID,), 0)))
    r = run_kernel(k, 2, {"a": [1, 0]})
    assert r.status == ASSUMPTION_VIOLATED
    assert r.violations[0].threads == (1,)
    assert r.final is None
    assert not r.failures  # not a bug in the kernel


def test_inputs_none_samples_admissible_input() -> None:
    r = run_kernel(incr_kernel(1), 3, None, seed=4)  # type: ignore[arg-type]
    assert r.status == OK
    assert r.inputs["n"] == 3


def test_replay_from_state() -> None:
    k = incr_kernel(1)
    st = empty_state(k, 2)  # type: ignore[arg-type]
    st.shared["a"].cells.update({(0,): 5, (1,): 6})
    st.scalars["n"] = [2, 2]
    r = replay(k, 2, st)  # type: ignore[arg-type]
    assert r.status == OK
    assert st.shared["a"].cells == {(0,): 5, (1,): 6}  # not modified
    assert r.final is not None and r.final.shared["a"].cells == {(0,): 6, (1,): 7}


def test_loop_invariant_includes_threads_that_left_the_loop() -> None:
    # thread 1 never enters; thread 0's body breaks a[1] == 0, seen at the next head visit
    k = kernel(
        [shared("a"), local("i")],
        seq(
            assign("i", (), TID),
            while_(
                b("<", v("i"), 1),
                seq(assign("a", (1,), 1), assign("i", (), b("+", v("i"), 1))),
                (f(b("==", v("a", TID), 0), 31),),
            ),
        ),
    )
    r = run_kernel(k, 2, {"a": [0, 0]})
    [x] = r.failures
    assert x.kind == LOOP_INVARIANT and x.threads == (1,) and dict(x.values) == {"a[1]": 1}
