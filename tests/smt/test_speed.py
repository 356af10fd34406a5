"""The fast paths of VC preparation give pySMT's results (issue 14, item 1): the direct type
checker and free-variable walks (`smt.speed.install`), the substitution loop
(`smt.speed.substitute`) and the term printer (`smt.printer`)."""

from __future__ import annotations

from io import StringIO

import pytest
from pysmt.environment import Environment
from pysmt.exceptions import PysmtTypeError
from pysmt.fnode import FNode
from pysmt.typing import BOOL, INT, REAL, FunctionType
from pysmt.walkers import IdentityDagWalker

from hoaregpu.driver import fresh_env
from hoaregpu.smt.smtlib import _Printer, term_writer
from hoaregpu.smt.speed import install, substitute


def _terms(env: Environment) -> list[FNode]:
    m = env.formula_manager
    x, y = m.Symbol("x", INT), m.Symbol("y#1", INT)  # `y#1` is quoted in SMT-LIB
    t = m.Symbol("t!3", INT)
    a = m.Symbol("a", FunctionType(INT, [INT, INT]))
    z = m.Symbol("z", FunctionType(BOOL, [INT]))
    r = m.Symbol("r", REAL)
    cell = m.Function(a, [x, m.Minus(y, m.Int(-3))])
    body = m.Implies(
        m.And(m.LE(m.Int(0), t), m.LT(t, x)), m.Iff(m.Function(z, [t]), m.Not(m.Equals(cell, t)))
    )
    return [
        x,
        m.Int(-7),
        m.TRUE(),
        cell,
        m.Div(x, y),
        m.Div(r, m.Real(2)),
        m.Plus(x, m.Times(y, m.Int(2)), m.Ite(m.GT(x, y), x, y)),
        m.ForAll([t], body),
        m.Exists([t, m.Symbol("u", INT)], m.Or(m.Function(z, [t]), m.FALSE())),
        m.Equals(m.ToReal(x), r),
        m.GE(m.Pow(r, m.Real(2)), r),  # no fast case: pySMT's printer writes it
    ]


def _pysmt_text(term: FNode) -> str:
    buf = StringIO()
    _Printer(buf).printer(term)
    return buf.getvalue()


def test_the_fast_printer_writes_pysmts_text() -> None:
    with fresh_env() as env:
        write = term_writer()
        for term in _terms(env):
            assert write(term) == _pysmt_text(term), term
        assert write(_terms(env)[4]) == "(div x |y#1|)"


def test_the_printer_has_no_depth_limit() -> None:
    with fresh_env() as env:
        m = env.formula_manager
        f = m.Symbol("x", INT)
        for i in range(5000):
            f = m.Plus(f, m.Int(i))
        text = term_writer()(f)
    assert text.startswith("(+ (+ ") and text.count("(") == 5000


def test_direct_walks_give_pysmts_types_and_free_variables() -> None:
    with fresh_env() as env:
        assert env.stc.walk.__module__ == "hoaregpu.smt.speed"  # fresh_env installs them
        terms = _terms(env)
        got = [(t.get_type(), t.get_free_variables()) for t in terms]
    plain = Environment()
    expected = [(t.get_type(), t.get_free_variables()) for t in _terms(plain)]
    assert [(str(ty), sorted(map(str, fv))) for ty, fv in got] == [
        (str(ty), sorted(map(str, fv))) for ty, fv in expected
    ]


def test_the_direct_type_checker_still_rejects_ill_typed_nodes() -> None:
    env = install(Environment())
    m = env.formula_manager
    x, b = m.Symbol("x", INT), m.Symbol("b", BOOL)
    with pytest.raises(PysmtTypeError):
        m.Plus(x, b)
    with pytest.raises(PysmtTypeError):
        m.And(x, b)
    assert m.And(b, m.LE(x, x)).get_type() is BOOL


class _Identity(IdentityDagWalker):  # type: ignore[misc]
    def __init__(self, env: Environment, mapping: dict[FNode, FNode]) -> None:
        super().__init__(env=env, invalidate_memoization=True)
        self.mapping = mapping

    def walk_symbol(self, formula: FNode, args: object, **kwargs: object) -> FNode:
        return self.mapping.get(formula, formula)


def test_substitute_builds_what_the_identity_walker_builds() -> None:
    with fresh_env() as env:
        m = env.formula_manager
        terms = _terms(env)
        a = m.Symbol("a", FunctionType(INT, [INT, INT]))
        mapping = {
            m.Symbol("x", INT): m.Symbol("x0", INT),
            a: m.Symbol("a!9", FunctionType(INT, [INT, INT])),
            m.Symbol("t!3", INT): m.Symbol("t!4", INT),  # a bound variable, renamed with its binder
        }
        for term in terms:
            assert substitute(env, term, mapping) is _Identity(env, mapping).walk(term), term
        untouched = m.Symbol("y#1", INT)
        assert substitute(env, untouched, mapping) is untouched
        assert "a!9" in str(substitute(env, terms[3], mapping))
