"""`smt/sums.py`'s unfoldings: a prefix function's value over the constant ranges of the
sums written out in the same VC (a loop invariant's `\\sum` with symbolic bounds meeting a
postcondition's constant one)."""

from __future__ import annotations

import pytest
from pysmt.shortcuts import And, Equals, Int, Symbol, is_valid
from pysmt.typing import INT, FunctionType

from hoaregpu.driver import fresh_env
from hoaregpu.smt import closing, sums
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
        return bool(is_valid(formula, solver_name="z3"))


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
