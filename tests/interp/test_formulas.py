"""Formula evaluation: per-thread reading, @, \\old, \\all/\\none, bounded quantifiers."""

from __future__ import annotations

from hoaregpu.core import Formula
from hoaregpu.errors import Span
from hoaregpu.interp.formulas import FormulaChecker, mentions_thread
from hoaregpu.interp.values import initial_state
from hoaregpu.terms import Term

from .helpers import NTID, TID, all_, at, b, exists, forall, kernel, local, none_, old, shared, v

K = kernel([shared("a"), local("x"), local("n", param=True)], b("==", 0, 0))  # type: ignore[arg-type]


def check(term: Term, a: list[int], xs: list[int] | None = None, mask: list[int] | None = None):  # type: ignore[no-untyped-def]
    st = initial_state(K, 4, {"a": a, "n": 4})
    if xs is not None:
        st.scalars["x"] = xs
    old_st = st.copy()
    old_st.shared["a"].cells = {k: val - 1 for k, val in st.shared["a"].cells.items()}
    notes: list[str] = []
    fc = FormulaChecker(K, st, old_st, notes)
    return fc.check(Formula(term, Span("k.cu", 1, 1)), mask if mask is not None else [0, 1, 2, 3]), notes


def test_per_thread_detection() -> None:
    assert mentions_thread(b("==", v("x"), 1), K)
    assert mentions_thread(b("==", v("a", TID), 1), K)
    assert not mentions_thread(b("==", at(v("x"), 0), 1), K)
    assert not mentions_thread(all_(b("==", v("x"), 1)), K)
    assert not mentions_thread(forall("j", b("==", v("a", v("j")), 1)), K)


def test_per_thread_formula_reports_threads() -> None:
    fail, _ = check(b("<", v("x"), 2), [0] * 4, xs=[0, 5, 1, 7])
    assert fail is not None and fail.threads == [1, 3]
    fail, _ = check(b("<", v("x"), 2), [0] * 4, xs=[0, 5, 1, 7], mask=[0, 2])
    assert fail is None


def test_at_all_none() -> None:
    xs = [3, 3, 3, 4]
    assert check(b("==", at(v("x"), 3), 4), [0] * 4, xs)[0] is None
    assert check(b("==", at(v("x"), b("-", NTID, 1)), 4), [0] * 4, xs)[0] is None
    assert check(all_(b(">=", v("x"), 3)), [0] * 4, xs)[0] is None
    assert check(all_(b("==", v("x"), 3)), [0] * 4, xs)[0] is not None
    assert check(none_(b(">", v("x"), 4)), [0] * 4, xs)[0] is None
    assert check(none_(b("==", v("x"), TID)), [0] * 4, xs)[0] is None
    assert check(none_(b("==", v("x"), b("+", TID, 1))), [0] * 4, xs)[0] is not None  # x@2 == 3
    assert check(b("==", at(v("x"), TID), v("x")), [0] * 4, xs)[0] is None


def test_old_reads_initial_state() -> None:
    fail, _ = check(b("==", v("a", TID), b("+", old(v("a", TID)), 1)), [5, 6, 7, 8])
    assert fail is None


def test_quantifier_bounds_from_guard_no_note() -> None:
    j = v("j")
    body = b("==>", b("&&", b("<=", 0, j), b("<", j, v("n"))), b(">=", v("a", j), 1))
    fail, notes = check(forall("j", body), [1, 2, 3, 4])
    assert fail is None and notes == []
    fail, notes = check(forall("j", body), [1, 2, 0, 4])
    assert fail is not None and ("j", 2) in fail.values and notes == []


def test_relational_bounds_sorted() -> None:
    i, j = v("i"), v("j")
    guard = b("&&", b("&&", b("<=", 0, i), b("<", i, j)), b("<", j, NTID))
    sorted_ = forall(("i", "j"), b("==>", guard, b("<=", v("a", i), v("a", j))))
    fail, notes = check(sorted_, [1, 2, 3, 4])
    assert fail is None and notes == []
    fail, notes = check(sorted_, [1, 3, 2, 4])
    assert fail is not None and notes == []


def test_exists_bounds_from_conjuncts() -> None:
    j = v("j")
    f = exists("j", b("&&", b("&&", b(">=", j, 0), b("<=", j, 3)), b("==", v("a", j), 7)))
    assert check(f, [0, 0, 7, 0])[0] is None
    assert check(f, [0, 0, 0, 0])[0] is not None


def test_unguarded_quantifier_uses_window_and_notes_it() -> None:
    f = forall("j", b(">=", v("a", v("j")), 0))
    fail, notes = check(f, [0, 1, 2])
    assert fail is None
    assert len(notes) == 1 and "bounded" in notes[0] and "[-2, 5]" in notes[0]
    fail, _ = check(forall("j", b("==", v("a", v("j")), 0)), [0, 1, 2])
    assert fail is not None


def test_error_inside_formula_is_a_failure() -> None:
    fail, _ = check(b("==", b("/", 1, b("-", TID, 1)), 0), [0] * 4)
    assert fail is not None and fail.error is not None and "division by zero" in fail.error


def _checker(xs: list[int], old_xs: list[int] | None = None) -> FormulaChecker:
    st = initial_state(K, 4, {"a": [1, 2, 3, 4], "n": 4})
    st.scalars["x"] = xs
    old_st = st.copy()
    if old_xs is not None:
        old_st.scalars["x"] = old_xs
    return FormulaChecker(K, st, old_st, [])


def test_threads_that_agree_on_the_locals_read_are_evaluated_once() -> None:
    """A per-thread clause over a uniform local (a barrier invariant over the loop counter)
    is one evaluation, not one per thread; a failing evaluation fails its whole group."""
    clause = Formula(
        forall(
            "j", b("==>", b("&&", b("<=", 0, v("j")), b("<", v("j"), 4)), b(">=", v("a", v("j")), v("x")))
        ),
        Span("k.cu", 1, 1),
    )
    fc = _checker([1, 1, 1, 1])
    assert fc.check(clause, [0, 1, 2, 3]) is None and fc.instances == 4  # 4 cells, once
    fc = _checker([1, 9, 1, 9])  # two groups: x = 1 holds, x = 9 fails at threads 1 and 3
    fail = fc.check(clause, [0, 1, 2, 3])
    assert fail is not None and fail.threads == [1, 3]
    assert fc.instances == 4 + 1 + 1  # the group that holds; the other fails at j = 0, and its trace


def test_threads_are_told_apart_by_old_locals_and_coordinates() -> None:
    fc = _checker([2, 2, 2, 2], old_xs=[0, 5, 0, 0])  # equal now, not in the old state
    fail = fc.check(Formula(b(">", v("x"), old(v("x"))), Span("k.cu", 1, 1)), [0, 1, 2, 3])
    assert fail is not None and fail.threads == [1]
    fc = _checker([2, 2, 2, 2])  # reads the thread's coordinate: one evaluation per thread
    fail = fc.check(Formula(b("<", b("+", v("x"), TID), 4), Span("k.cu", 1, 1)), [0, 1, 2, 3])
    assert fail is not None and fail.threads == [2, 3]
