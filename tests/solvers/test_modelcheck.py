"""Solver answers are checked, not believed: error lines before a verdict, and models that
do not satisfy the negated VC (issue 8)."""

from __future__ import annotations

from pathlib import Path

import pytest

from hoaregpu.solvers import Outcome, SolverOptions, SolveTask, solve_many
from hoaregpu.solvers.binary import classify_output
from hoaregpu.solvers.modelcheck import ModelVerdict, check_model, check_script

from .fakes import fake_solver, refutable_script, valid_script

OPTS = SolverOptions(timeout=5.0, memory_mb=None)


def classify(stdout: str) -> tuple[Outcome, str, str | None]:
    a = classify_output(stdout, "", 0, 0.01, OPTS)
    return a.outcome, a.message, a.model


@pytest.mark.parametrize(
    "stdout",
    [
        '(error "x")\nunsat\n',
        '(error "line 3 column 9: unknown constant y")\nunsat\n',
        'success\n(error "x")\nsat\n((x 1))\n',
    ],
)
def test_an_error_before_the_verdict_is_an_error_not_an_answer(stdout: str) -> None:
    outcome, message, _ = classify(stdout)
    assert outcome is Outcome.ERROR
    assert "error before answering" in message


@pytest.mark.parametrize("stdout", ["unsat\nunsat\n", "unsat\nsat\n", "sat\n((x 1))\nunsat\n"])
def test_two_verdicts_for_one_check_sat_are_an_error(stdout: str) -> None:
    outcome, message, _ = classify(stdout)
    assert outcome is Outcome.ERROR and "and then" in message


def test_errors_after_unsat_are_the_expected_get_value_and_get_model_failures() -> None:
    out = 'unsat\n(error "model is not available")\n(error "model is not available")\n'
    assert classify(out)[0] is Outcome.PROVED


@pytest.mark.parametrize(
    ("stdout", "model"),
    [
        # z3 4.8 and cvc5 1.0: a bare list of definitions; cvc4 1.8: headed by `model`
        ("sat\n((x 3))\n(\n  (define-fun x () Int\n    3)\n)\n", "(define-fun x () Int 3)"),
        ("sat\n((x 3))\n(model\n(define-fun x () Int 3)\n)\n", "(define-fun x () Int 3)"),
        ("sat\n((x 3))\n", None),  # no get-model answer: nothing to check
        ('sat\n((x 3))\n(error "no models")\n', None),
    ],
)
def test_the_model_is_read_after_sat(stdout: str, model: str | None) -> None:
    outcome, _, got = classify(stdout)
    assert outcome is Outcome.REFUTED
    assert got == model


def test_a_model_satisfying_the_negated_vc_is_confirmed() -> None:
    assert check_model(refutable_script(), "(define-fun x () Int 7)", 5).verdict is ModelVerdict.CONFIRMED


def test_a_model_violating_the_negated_vc_is_wrong() -> None:
    assert check_model(refutable_script(), "((define-fun x () Int 0))", 5).verdict is ModelVerdict.WRONG


def test_any_model_of_a_valid_vc_is_wrong() -> None:
    assert check_model(valid_script(), "(model (define-fun x () Int 1))", 5).verdict is ModelVerdict.WRONG


def test_a_model_giving_a_symbol_another_sort_is_wrong() -> None:
    for model in ("(define-fun x () Bool true)", "(define-fun x ((y Int)) Int 1)"):
        check = check_model(refutable_script(), model, 5)
        assert check.verdict is ModelVerdict.WRONG
        assert "defines x with another sort" in check.note()


@pytest.mark.parametrize(
    ("model", "why"),
    [
        (None, "gave no model"),
        ("(define-fun x () Int", "cannot read"),
        ("(define-fun x () Int 1) (define-fun x () Int 2)", "defined twice"),
        ("(declare-sort U 0)", "not a plain define-fun"),
        ("(define-fun x () Int (+ y 1))", "cannot read the model"),  # y unknown to z3
    ],
)
def test_a_missing_or_unreadable_model_is_unchecked_never_confirmed(model: str | None, why: str) -> None:
    check = check_model(refutable_script(), model, 5)
    assert check.verdict is ModelVerdict.UNCHECKED
    assert why in check.detail
    assert check.note().startswith("not checked: ")


FUNCTION_SCRIPT = """\
(set-option :produce-models true)
(set-logic UFNIA)
(declare-fun |f| (Int) Int)
(declare-fun n () Int)
(assert (and (> n 0) (forall ((i Int)) (=> (and (<= 0 i) (< i n)) (= (f i) (* 2 i)))) (= (f n) 7)))
(check-sat)
"""


def test_helper_definitions_come_before_their_uses_and_quoted_names_match() -> None:
    # z3 prints helper functions (k!1) and may print them after their first use.
    model = """
    (define-fun f ((x!0 Int)) Int (ite (= (k!1 x!0) 1) 7 (* 2 x!0)))
    (define-fun n () Int 1)
    (define-fun k!1 ((x!0 Int)) Int (ite (>= x!0 1) 1 0))
    """
    text = check_script(FUNCTION_SCRIPT, model)
    assert text.index("(define-fun k!1") < text.index("(define-fun f")
    assert "declare-fun" not in text  # every declared symbol is defined by the model
    assert check_model(FUNCTION_SCRIPT, model, 5).verdict is ModelVerdict.CONFIRMED
    wrong = model.replace("(ite (= (k!1 x!0) 1) 7 (* 2 x!0))", "(* 2 x!0)")
    assert check_model(FUNCTION_SCRIPT, wrong, 5).verdict is ModelVerdict.WRONG


DIVISION_SCRIPT = """\
(declare-fun x () Int)
(declare-fun y () Int)
(assert (and (= y 0) (= (mod x y) 3) (= (div x y) 7)))
(check-sat)
"""


@pytest.mark.parametrize(("x", "verdict"), [(21, ModelVerdict.CONFIRMED), (-4, ModelVerdict.WRONG)])
def test_z3s_divisions_by_zero_in_a_model_are_left_out(x: int, verdict: ModelVerdict) -> None:
    """z3's models define `mod0`/`div0` (its `x mod 0`, `x div 0`), which z3 will not read
    back: such a model went unchecked. They are left out; the rest is checked."""
    model = f"""
    (define-fun x () Int {x})
    (define-fun y () Int 0)
    (define-fun mod0 ((x!0 Int) (x!1 Int)) Int 3)
    (define-fun div0 ((x!0 Int) (x!1 Int)) Int 7)
    """
    script = DIVISION_SCRIPT if x > 0 else DIVISION_SCRIPT.replace("(= y 0)", "(= y 0) (> x 0)")
    assert "mod0" not in check_script(script, model)
    assert check_model(script, model, 5).verdict is verdict


def test_a_symbol_the_model_leaves_out_stays_free() -> None:
    """Solvers omit symbols whose value does not matter; a default could make a right model wrong."""
    text = check_script(FUNCTION_SCRIPT, "(define-fun n () Int 2)")
    assert "(declare-fun |f| (Int) Int)" in text
    assert check_model(FUNCTION_SCRIPT, "(define-fun n () Int 2)", 5).verdict is ModelVerdict.CONFIRMED


def test_native_solvers_refutations_come_with_a_confirmed_model() -> None:
    results = solve_many([SolveTask(refutable_script(), s) for s in ("z3", "cvc5")], OPTS, jobs=2)
    for r in results:
        assert r.outcome is Outcome.REFUTED, r
        assert r.model_check == "confirmed by z3" and r.model_checked


def test_a_sat_without_a_model_stays_refuted_but_unchecked(tmp_path: Path) -> None:
    bare = fake_solver(tmp_path, "echo sat", "bare")
    [r] = solve_many([SolveTask(refutable_script(), bare)], OPTS)
    assert r.outcome is Outcome.REFUTED
    assert not r.model_checked and r.model_check == "not checked: the solver gave no model"


def test_a_counterexample_that_does_not_satisfy_the_vc_is_an_error(tmp_path: Path) -> None:
    bogus = fake_solver(tmp_path, "echo sat; echo '((x 0))'; echo '((define-fun x () Int 0))'", "bogus")
    for script in (valid_script(), refutable_script()):
        [r] = solve_many([SolveTask(script, bogus)], OPTS)
        assert r.outcome is Outcome.ERROR
        assert f"solver {bogus}'s counterexample does not satisfy the VC" in r.message


def test_a_bogus_counterexample_loses_the_race_to_a_real_answer(tmp_path: Path) -> None:
    """Without --confirm, the first definitive answer wins, but a refutation must pass its check
    first: a liar's wrong model is an error of that member, and the other member decides."""
    bogus = fake_solver(tmp_path, "echo sat; echo '((define-fun x () Int 0))'", "bogus")
    [r] = solve_many([SolveTask(valid_script(), f"{bogus},z3")], OPTS, jobs=2)
    assert r.outcome is Outcome.PROVED and r.solver == "z3"


def test_an_error_line_before_unsat_is_an_error_through_a_worker(tmp_path: Path) -> None:
    liar = fake_solver(tmp_path, "echo '(error \"x\")'; echo unsat", "errliar")
    [r] = solve_many([SolveTask(refutable_script(), liar)], OPTS)
    assert r.outcome is Outcome.ERROR and "error before answering unsat" in r.message
