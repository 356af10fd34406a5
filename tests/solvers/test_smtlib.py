"""SMT-LIB text out and back in: round trips, quoting, `div`, determinism."""

from __future__ import annotations

import pytest
from pysmt.environment import reset_env
from pysmt.shortcuts import (
    GT,
    LE,
    And,
    Bool,
    Div,
    Equals,
    Exists,
    ForAll,
    Function,
    Iff,
    Implies,
    Int,
    Ite,
    Minus,
    Not,
    Or,
    Plus,
    Symbol,
    Times,
)
from pysmt.typing import BOOL, INT, FunctionType

from hoaregpu.errors import SolverError
from hoaregpu.smt import read_script, script_text

from .helpers import vector_add_vc


def rich_formula() -> tuple[object, list[object]]:
    f1 = Symbol("f", FunctionType(INT, [INT]))
    g2 = Symbol("g x", FunctionType(INT, [INT, INT]))
    h3 = Symbol("h'", FunctionType(INT, [INT, INT, INT]))
    p = Symbol("p.ok", FunctionType(BOOL, [INT]))
    q = Symbol("q", FunctionType(BOOL, [INT, BOOL]))
    x, y, i, k = Symbol("x", INT), Symbol("y", INT), Symbol("i", INT), Symbol("k@0", INT)
    b = Symbol("flag", BOOL)
    body = Implies(
        And(Function(p, [i]), LE(Int(-3), i)),
        Equals(Function(h3, [i, Div(i, x), Int(-7)]), Ite(b, Function(f1, [i]), Function(g2, [i, y]))),
    )
    formula = And(
        ForAll([i], body),
        Exists([i], And(Function(q, [i, Not(b)]), GT(Times(i, i), Minus(x, Int(2))))),
        Or(Iff(b, Function(p, [Div(Int(-7), Int(2))])), Equals(k, Plus(x, y, Int(1)))),
    )
    queries = [x, k, b, Function(g2, [x, y]), Function(p, [x]), Div(x, y)]
    return formula, queries


def test_round_trip_same_environment() -> None:
    reset_env()
    formula, queries = rich_formula()
    text = script_text(formula, queries)  # type: ignore[arg-type]
    parsed = read_script(text)
    assert parsed.formula == formula
    assert list(parsed.queries) == queries


def test_round_trip_fresh_environment_reprints_identically() -> None:
    reset_env()
    formula, queries = rich_formula()
    text = script_text(formula, queries)  # type: ignore[arg-type]
    reset_env()
    parsed = read_script(text)
    assert script_text(parsed.formula, parsed.queries) == text


def test_script_shape_and_quoting() -> None:
    reset_env()
    formula, queries = rich_formula()
    text = script_text(formula, queries)  # type: ignore[arg-type]
    lines = text.splitlines()
    assert lines[:2] == ["(set-option :produce-models true)", "(set-logic UFNIA)"]
    decls = [ln for ln in lines if ln.startswith("(declare-fun")]
    assert decls == [
        "(declare-fun f (Int) Int)",
        "(declare-fun flag () Bool)",
        "(declare-fun |g x| (Int Int) Int)",
        "(declare-fun |h'| (Int Int Int) Int)",
        "(declare-fun k@0 () Int)",
        "(declare-fun p.ok (Int) Bool)",
        "(declare-fun q (Int Bool) Bool)",
        "(declare-fun x () Int)",
        "(declare-fun y () Int)",
    ]
    assert lines[-2] == "(check-sat)"
    assert lines[-1] == "(get-value (x k@0 flag (|g x| x y) (p.ok x) (div x y)))"
    assert " / " not in text and "(/" not in text
    assert "(div i x)" in text and "(div (- 7) 2)" in text


def test_no_get_value_without_queries_and_deterministic() -> None:
    reset_env()
    vc, _, _ = vector_add_vc(True)
    a = script_text(Not(vc))
    b = script_text(Not(vc))
    assert a == b
    assert a.splitlines()[-1] == "(check-sat)"


@pytest.mark.parametrize("name", ["a|b", "back\\slash", "div", "and"])
def test_unwritable_names_are_rejected(name: str) -> None:
    reset_env()
    with pytest.raises(SolverError, match="cannot be written"):
        script_text(Equals(Symbol(name, INT), Int(0)))


def test_read_script_conjoins_assertions() -> None:
    reset_env()
    text = "(declare-fun x () Int)\n(assert (> x 0))\n(assert (< x (div 7 2)))\n(check-sat)\n"
    parsed = read_script(text)
    x = Symbol("x", INT)
    assert parsed.formula == And(GT(x, Int(0)), GT(Div(Int(7), Int(2)), x))
    assert parsed.queries == ()


def test_read_script_reports_garbage() -> None:
    reset_env()
    with pytest.raises(SolverError):
        read_script("(assert (frobnicate 1))")


def test_bool_constant_formula() -> None:
    reset_env()
    text = script_text(Bool(True))
    assert "(assert true)" in text
    assert read_script(text).formula == Bool(True)
