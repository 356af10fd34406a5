"""The checker's own translation of aggregates (proof/smt_aggregates.py): true entailments
are proved, false ones never are (refuted where z3 finds a model of the axioms)."""

from __future__ import annotations

import pytest
from pysmt.environment import get_env, pop_env, push_env

from hoaregpu.closed_terms import constant
from hoaregpu.proof.formula import PSkip
from hoaregpu.proof.kernel import KernelInfo, VarInfo
from hoaregpu.proof.parse import parse_formula_text
from hoaregpu.proof.smt import Translator, Untranslatable
from hoaregpu.smt.smtlib import script_text
from hoaregpu.solvers import Outcome, SolverOptions, SolveTask, solve_many

VARIABLES = {
    "a": VarInfo(False, 1),
    "b": VarInfo(False, 1),
    "n": VarInfo(False, 0),
    "m": VarInfo(False, 0),
    "x": VarInfo(True, 0),
    "y": VarInfo(True, 1),
}


def _info(threads: int | None) -> KernelInfo:
    return KernelInfo("<test>", "k", VARIABLES, (), frozenset(), (), (), PSkip(), threads)


def decide(
    hyp: str, goal: str, threads: int | None = None, timeout: int = 30, masks: set[str] | None = None
) -> Outcome:
    push_env()
    try:
        tr = Translator(_info(threads), masks or set(), threads, get_env())
        text = script_text(tr.entailment(parse_formula_text(hyp), parse_formula_text(goal)))
    finally:
        pop_env()
    (result,) = solve_many([SolveTask(text, "z3")], SolverOptions(timeout=timeout))
    return result.outcome


SUM_N = r"\sum(0, n, \lambda int k; a[k])"
SUM_N1 = r"\sum(0, n - 1, \lambda int k; a[k])"

# (hypothesis, goal, threads): valid entailments
VALID = [
    # symbolic ranges: the prefix function's step and splitting
    ("n >= 0", f"{SUM_N} == {SUM_N1} + a[n]", None),
    ("n < 0", f"{SUM_N} == 0", None),
    (
        "0 <= m && m <= n",
        rf"{SUM_N} == \sum(0, m, \lambda int k; a[k]) + \sum(m + 1, n, \lambda int k; a[k])",
        None,
    ),
    # a sum under \forall (symbolic bound j)
    (
        "1",
        r"\forall int j; 0 <= j ==> \sum(0, j, \lambda int k; a[k])"
        r" == \sum(0, j - 1, \lambda int k; a[k]) + a[j]",
        None,
    ),
    # extensionality of \numof (for any n: needs no induction)
    (
        r"\forall int k; 0 <= k && k < n ==> (b[k] != 0) == (a[k] > 0)",
        r"\numof(0, n - 1, \lambda int k; b[k] != 0) == \numof(0, n - 1, \lambda int k; a[k] > 0)",
        None,
    ),
    ("1", r"\numof(0, n - 1, \lambda int k; a[k] > 0) <= n || n < 0", None),
    # product and max with symbolic bounds: peeling a cell
    (
        "n >= 1",
        r"\product(1, n, \lambda int k; a[k]) == \product(1, n - 1, \lambda int k; a[k]) * a[n]",
        None,
    ),
    ("n >= 1", r"\max(0, n, \lambda int k; a[k]) >= a[n] && \max(0, n, \lambda int k; a[k]) >= a[0]", None),
    # constant ranges (a fixed thread count makes ntid a literal): written out
    ("1", r"\sum(0, ntid - 1, \lambda int k; a[k]) == a[0] + a[1] + a[2] + a[3]", 4),
    ("1", r"\max(0, 2 * ntid - 1, \lambda int k; a[k]) >= a[7]", 4),
    ("1", r"\product(2, 1, \lambda int k; a[k]) == 1 && \numof(5, 4, \lambda int k; 1) == 0", 4),
    # nested: written out at a constant outer range, and symbolic
    ("1", r"\sum(0, 2, \lambda int i; \sum(0, i, \lambda int k; a[k])) == 3 * a[0] + 2 * a[1] + a[2]", 4),
    (
        "n >= 0",
        r"\sum(0, n, \lambda int i; \sum(0, i, \lambda int k; a[k]))"
        r" == \sum(0, n - 1, \lambda int i; \sum(0, i, \lambda int k; a[k])) + " + SUM_N,
        None,
    ),
    # \old inside and outside, e @ t inside, a per-thread body under @
    (
        r"\old(n) == n",
        r"\old(\sum(0, n, \lambda int k; a[k])) == \sum(0, n, \lambda int k; \old(a[k]))",
        None,
    ),
    ("1", r"\sum(0, ntid - 1, \lambda int k; x @ k) == x @ 0 + x @ 1", 2),
    ("1", r"(\sum(0, 1, \lambda int k; x + y[k])) @ 1 == 2 * (x @ 1) + y[0] @ 1 + y[1] @ 1", 2),
    # a symbolic range over threads (extensionality; `== ntid` would need induction)
    (
        r"\forall int t; 0 <= t && t < ntid ==> (x == 1) @ t",
        r"\sum(0, ntid - 1, \lambda int k; x @ k) == \sum(0, ntid - 1, \lambda int k; 1)",
        None,
    ),
]

# false entailments (each one a mistake a proof could rest on); the last element: z3 finds
# the countermodel (quantifier-free: written-out ranges; else a model of the axioms)
INVALID = [
    ("n >= 0", f"{SUM_N} == {SUM_N1}", None, True),  # the last cell forgotten
    (
        "0 <= m && m <= n",
        rf"{SUM_N} == \sum(0, m, \lambda int k; a[k]) + \sum(m, n, \lambda int k; a[k])",
        None,
        True,
    ),
    ("1", r"\sum(0, ntid - 1, \lambda int k; a[k]) == a[0] + a[1] + a[2]", 4, True),
    ("1", r"\sum(0, ntid - 1, \lambda int k; \old(a[k])) == \sum(0, ntid - 1, \lambda int k; a[k])", 4, True),
    (
        r"\forall int k; 0 <= k && k < n - 1 ==> (b[k] != 0) == (a[k] > 0)",
        r"\numof(0, n - 1, \lambda int k; b[k] != 0) == \numof(0, n - 1, \lambda int k; a[k] > 0)",
        None,
        False,
    ),
    # the \max of an empty range has no value: nothing follows about it
    ("1", r"\max(1, 0, \lambda int k; a[k]) == 0", 4, False),
    ("n < 0", r"\max(0, n, \lambda int k; a[k]) == a[0]", None, False),
    ("n < 0", r"\min(0, n, \lambda int k; a[k]) <= a[0]", None, False),
    # \old of the bounds is the initial value of n
    ("1", r"\old(\sum(0, n, \lambda int k; a[k])) == \sum(0, n, \lambda int k; \old(a[k]))", None, True),
    ("1", r"\sum(0, ntid - 1, \lambda int k; x @ k) == 2 * (x @ 0)", 2, True),
]


@pytest.mark.parametrize(("hyp", "goal", "threads"), VALID)
def test_valid_entailments_are_proved(hyp: str, goal: str, threads: int | None) -> None:
    assert decide(hyp, goal, threads) is Outcome.PROVED


@pytest.mark.parametrize(("hyp", "goal", "threads", "refuted"), INVALID)
def test_false_entailments_are_never_proved(hyp: str, goal: str, threads: int | None, refuted: bool) -> None:
    # z3 finds no model of the quantified axioms for the others (a timeout, never a proof)
    outcome = decide(hyp, goal, threads, timeout=30 if refuted else 10)
    assert outcome is (Outcome.REFUTED if refuted else Outcome.TIMEOUT)


def test_constant_bounds_are_exact() -> None:
    """Which cells are written out rests on `constant`: SMT-LIB's Euclidean division, C's
    division (toward zero) as the translator builds it, and conditionals."""
    push_env()
    try:
        tr = Translator(_info(4), set(), 4, get_env())
        for text, value in [
            ("7 / 2", 3),
            ("-7 / 2", -3),
            ("7 / -2", -3),
            ("-7 % 2", -1),
            ("2 * ntid - 1", 7),
            ("0 >= 3 - 5 + 1 ? 0 : 3 - 5 + 1", 0),
            ("ntid >> 1", 2),
        ]:
            assert constant(tr._iv(parse_formula_text(text), _env(), None)) == value, text
        assert constant(tr._iv(parse_formula_text("n + 1"), _env(), None)) is None
        assert constant(tr._iv(parse_formula_text("7 / (ntid - 4)"), _env(), None)) is None
    finally:
        pop_env()


def _env():  # type: ignore[no-untyped-def]
    from hoaregpu.proof.smt import Env

    return Env()


def test_a_local_in_the_body_needs_a_thread() -> None:
    push_env()
    try:
        tr = Translator(_info(None), set(), None, get_env())
        with pytest.raises(Untranslatable, match="local 'x' read without a thread"):
            tr.wellformed(parse_formula_text(r"\sum(0, n, \lambda int k; x) == 0"))
    finally:
        pop_env()
