"""`smt/shape_links.py`: aggregate functions whose bodies differ only off the bound variable
are linked to one general function, so a thread's sum (a loop invariant under ∀t) meets a
postcondition's by congruence; the links add no false theorem."""

from __future__ import annotations

import pytest
from pipeline_kit import decide
from pysmt.environment import Environment
from pysmt.fnode import FNode
from pysmt.shortcuts import And, Equals, Int, Not, Plus, Symbol
from pysmt.typing import INT, FunctionType

from hoaregpu.driver import fresh_env
from hoaregpu.smt import closing, shape_links, sums
from hoaregpu.smt.smtlib import script_text
from hoaregpu.solvers import Outcome, SolverOptions, SolveTask, solve_many
from hoaregpu.terms import AggKind


def _matmul_vc(env: Environment, width: int = 32, offset: int = 0) -> FNode:
    """∀t. acc(t) == Σ 0..hi of A[rowK(t) + k] * B[k*32 + col(t)] (a thread's invariant), a
    thread w whose rowK and col are r*K and c: ⊢ acc(w) == Σ 0..hi of A[r*K + k] *
    B[k*width + c] + offset (a postcondition's cell): a theorem for width 32 and offset 0."""
    m = env.formula_manager
    a, b, row_k, col, acc = (Symbol(n, FunctionType(INT, [INT])) for n in ("A", "B", "rowK", "col", "acc"))
    k, t, w, r, c, big_k, hi = (Symbol(n, INT) for n in ("k", "t", "w", "r", "c", "K", "hi"))

    def body(start: FNode, column: FNode, stride: int) -> FNode:
        return m.Times(
            m.Function(a, [m.Plus(start, k)]), m.Function(b, [m.Plus(m.Times(k, Int(stride)), column)])
        )

    own = sums.marker(m, AggKind.SUM, Int(0), hi, k, body(m.Function(row_k, [t]), m.Function(col, [t]), 32))
    cell = sums.marker(m, AggKind.SUM, Int(0), hi, k, body(m.Times(r, big_k), c, width))
    invariant = m.ForAll([t], Equals(m.Function(acc, [t]), own))
    writer = And(Equals(m.Function(row_k, [w]), m.Times(r, big_k)), Equals(m.Function(col, [w]), c))
    goal = Equals(m.Function(acc, [w]), Plus(cell, Int(offset)))
    return closing.close(env, And(invariant, writer), goal, fixed=False).formula(m)


def _z3(formula: FNode, timeout: float = 3.0) -> Outcome:
    """z3's answer alone, briefly: for formulas no solver should prove (`decide` would ask
    three solvers for their whole time limit each)."""
    (result,) = solve_many(
        [SolveTask(script_text(Not(formula)), "z3")], SolverOptions(timeout=timeout), jobs=1
    )
    return result.outcome


def test_a_threads_sum_meets_a_postconditions_through_the_links() -> None:
    with fresh_env() as env:
        assert decide([_matmul_vc(env)]) == [Outcome.PROVED]


def test_without_the_links_the_two_sums_are_unrelated(monkeypatch: pytest.MonkeyPatch) -> None:
    # two prefix functions that agree only by induction: what the links are for
    monkeypatch.setattr(shape_links.ShapeLinks, "links", lambda self, free: [])
    with fresh_env() as env:
        assert _z3(_matmul_vc(env)) is not Outcome.PROVED


@pytest.mark.parametrize(("width", "offset"), [(32, 1), (33, 0)])
def test_the_links_prove_nothing_false(width: int, offset: int) -> None:
    # a sum one more than the thread's, or over another body (a different literal: another
    # general body, so no link): not proved
    with fresh_env() as env:
        assert _z3(_matmul_vc(env, width, offset)) is not Outcome.PROVED


def _three(env: Environment, kind: AggKind) -> tuple[sums.Closer, list[frozenset[FNode]]]:
    """Aggregates of `kind` over 0..n of a[i*j + k] (shape parameters i, j), a[i + k] (i:
    the same general body a[g0 + k]) and a[i * k] (another general body): the closer, and
    each one's free symbols."""
    m = env.formula_manager
    a = Symbol("a", FunctionType(INT, [INT]))
    k, i, j, n = (Symbol(x, INT) for x in ("k", "i", "j", "n"))
    closer = sums.Closer(env)
    bodies = [m.Plus(m.Times(i, j), k), m.Plus(i, k), m.Times(i, k)]
    walked = [closer.walk(sums.marker(m, kind, Int(0), n, k, m.Function(a, [b]))) for b in bodies]
    return closer, [frozenset(w.get_free_variables()) for w in walked]


def test_only_functions_of_one_general_body_are_linked() -> None:
    with fresh_env() as env:
        closer, (first, second, other) = _three(env, AggKind.SUM)
        links = shape_links.ShapeLinks(closer)
        assert links.links(other | second) == []
        both = links.links(first | second | other)
        assert len(both) == 2 and all(f.is_forall() for f in both)
        (general,) = {g for f in both for g in f.get_free_variables() if "general" in g.symbol_name()}
        assert general in closer.definitions  # an aggregate function of the VC (`Hyp.defines`)


def test_captured_subterms_are_maximal_and_skip_literals() -> None:
    with fresh_env() as env:
        m = env.formula_manager
        a, f = Symbol("a", FunctionType(INT, [INT])), Symbol("f", FunctionType(INT, [INT]))
        k, t = Symbol("k", INT), Symbol("t", INT)
        body = m.Function(a, [m.Plus(m.Times(k, Int(32)), m.Function(f, [t]))])
        assert shape_links.captured(body, k) == [m.Function(f, [t])]
        quantified = m.Plus(k, m.Ite(m.ForAll([t], m.GT(m.Function(f, [t]), k)), Int(1), Int(0)))
        assert shape_links.captured(quantified, k) is None


def test_extrema_are_not_linked() -> None:
    # \max of an empty range has no value; a link would equate two such unknowns
    with fresh_env() as env:
        closer, (first, second, _) = _three(env, AggKind.MAX)
        assert len([f for f in first | second if f in closer.signatures]) == 2
        assert shape_links.ShapeLinks(closer).links(first | second) == []
