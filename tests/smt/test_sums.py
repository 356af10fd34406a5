"""`smt/sums.py`'s unfoldings: a prefix function's value over the constant ranges of the
sums written out in the same VC (a loop invariant's `\\sum` with symbolic bounds meeting a
postcondition's constant one)."""

from __future__ import annotations

import pytest
from pipeline_kit import decide
from pysmt.environment import Environment
from pysmt.fnode import FNode
from pysmt.shortcuts import And, Equals, Int, Symbol, is_valid
from pysmt.typing import INT, FunctionType

from hoaregpu.driver import fresh_env
from hoaregpu.smt import closing, sums
from hoaregpu.solvers import Outcome
from hoaregpu.terms import AggKind


def _invariant_meets_postcondition(shift: int) -> bool:
    """acc == Σ 0..m*4+j-1 of a[r*8+k] (symbolic bounds: a prefix function of r), m == 0 and
    j == 4 ⊢ acc == Σ 0..3+shift of a[r*8+k] (constant bounds: written out), r bound by a
    quantifier as a postcondition's row is."""
    with fresh_env() as env:
        m = env.formula_manager
        a = Symbol("a", FunctionType(INT, [INT]))
        acc = Symbol("acc", FunctionType(INT, [INT]))
        k, r, mm, j = (Symbol(n, INT) for n in ("k", "r", "m", "j"))
        body = m.Function(a, [m.Plus(m.Times(r, Int(8)), k)])
        high = m.Minus(m.Plus(m.Times(mm, Int(4)), j), Int(1))
        invariant = m.ForAll(
            [r], Equals(m.Function(acc, [r]), sums.marker(m, AggKind.SUM, Int(0), high, k, body))
        )
        hyp = And(invariant, Equals(mm, Int(0)), Equals(j, Int(4)))
        post = Equals(m.Function(acc, [r]), sums.marker(m, AggKind.SUM, Int(0), Int(3 + shift), k, body))
        formula = closing.close(env, hyp, m.ForAll([r], post), fixed=False).formula(env.formula_manager)
        # (bounded: pySMT's is_valid waits for an answer z3 may not find to a formula that is not valid)
        return decide([formula]) == [Outcome.PROVED]


def test_a_written_out_sum_meets_a_prefix_function_without_the_step_axiom(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sums, "PREFIX_STEP", "ground")  # only the unfolding can connect them
    assert _invariant_meets_postcondition(0)
    assert not _invariant_meets_postcondition(1)  # one cell more: not a theorem, not proved


def test_unfoldings_are_theorems_of_the_prefix_axioms() -> None:
    """Each unfolding follows from the definition (anchor and step), here by 4 unfoldings."""
    with fresh_env() as env:
        m = env.formula_manager
        a = Symbol("a", FunctionType(INT, [INT]))
        k, r, hi = Symbol("k", INT), Symbol("r", INT), Symbol("hi", INT)
        body = m.Function(a, [m.Plus(m.Times(r, Int(8)), k)])
        closer = sums.Closer(env)
        symbolic = closer.walk(sums.marker(m, AggKind.SUM, Int(0), hi, k, body))
        closer.walk(sums.marker(m, AggKind.SUM, Int(1), Int(4), k, body))
        (fact,) = closer.unfoldings(symbolic.get_free_variables(), closer.ranges)
        assert fact.is_forall()
        definition = And(closer.axioms(symbolic.get_free_variables()))
        assert is_valid(m.Implies(definition, fact), solver_name="z3")


def _matmul_sums(env: Environment) -> tuple[FNode, FNode, FNode]:
    """A thread t's Σ 0..hi of A[rowK(t) + k] * B[k * 32 + col(t)] under ∀t (a loop invariant)
    and Σ 0..hi of A[r * K + k] * B[k * 32 + c] (a postcondition's cell), as markers; and the
    hypothesis that t's row and column are r's and c's."""
    m = env.formula_manager
    a, b = (Symbol(n, FunctionType(INT, [INT])) for n in ("A", "B"))
    row_k, col, acc = (Symbol(n, FunctionType(INT, [INT])) for n in ("rowK", "col", "acc"))
    k, t, r, c, big_k, hi = (Symbol(n, INT) for n in ("k", "t", "r", "c", "K", "hi"))

    def body(offset: FNode, column: FNode) -> FNode:
        return m.Times(
            m.Function(a, [m.Plus(offset, k)]), m.Function(b, [m.Plus(m.Times(k, Int(32)), column)])
        )

    thread = sums.marker(m, AggKind.SUM, Int(0), hi, k, body(m.Function(row_k, [t]), m.Function(col, [t])))
    cell = sums.marker(m, AggKind.SUM, Int(0), hi, k, body(m.Times(r, big_k), c))
    invariant = m.ForAll([t], Equals(m.Function(acc, [t]), thread))
    w = Symbol("w", INT)  # the thread that wrote the cell
    same = And(Equals(m.Function(row_k, [w]), m.Times(r, big_k)), Equals(m.Function(col, [w]), c))
    return invariant, And(same, Equals(m.Function(acc, [w]), Symbol("v", INT))), cell


def test_sums_whose_bodies_differ_only_off_the_bound_variable_are_one_function() -> None:
    # so a thread's sum (its loop invariant) equals the postcondition's by congruence, where
    # two functions would need extensionality, an induction (the symbolic tiled matmul)
    with fresh_env() as env:
        m = env.formula_manager
        invariant, writer, cell = _matmul_sums(env)
        closer = sums.Closer(env)
        thread_sum, cell_sum = closer.walk(invariant), closer.walk(cell)
        assert len(closer.definitions) == 1
        (p,) = closer.definitions
        # the axioms mention the shape's own parameters only: no thread, row or column of a use
        axioms = And(closer.axioms(thread_sum.get_free_variables() | cell_sum.get_free_variables()))
        assert {s.symbol_name() for s in axioms.get_free_variables()} == {"A", "B", p.symbol_name()}
        goal = Equals(Symbol("v", INT), cell)
        formula = closing.close(env, And(invariant, writer), goal, fixed=False).formula(m)
        assert decide([formula]) == [Outcome.PROVED]
