"""Shared formulas for the solver tests, and a small evaluator for ground terms."""

from __future__ import annotations

from collections.abc import Mapping

from pysmt.fnode import FNode
from pysmt.shortcuts import (
    GE,
    LE,
    LT,
    And,
    Equals,
    ForAll,
    Function,
    Implies,
    Int,
    Ite,
    Plus,
    Symbol,
)
from pysmt.typing import BOOL, INT, FunctionType

F1 = FunctionType(INT, [INT])
B1 = FunctionType(BOOL, [INT])


def ap(f: FNode, *args: FNode) -> FNode:
    return Function(f, list(args))


def vector_add_vc(valid: bool) -> tuple[FNode, list[FNode], dict[str, FNode]]:
    """One step of vector addition, shaped like our VCs:
    (∀i. 0<=i<n → c'(i) = ite(0<=i<n ∧ m(i), a(i)+b(i), c(i))) ∧ (∀i. m(i)) ∧ n>=1 ∧ 0<=j<n
    → c'(j) = a(j)+b(j). The invalid variant only knows m(i) for 0 < i."""
    a, b, c, cp = (Symbol(n, F1) for n in ("a", "b", "c", "c'"))
    m = Symbol("m", B1)
    n, j, i = Symbol("n", INT), Symbol("j", INT), Symbol("i", INT)
    in_range = And(LE(Int(0), i), LT(i, n))
    update = ForAll(
        [i],
        Implies(
            in_range, Equals(ap(cp, i), Ite(And(in_range, ap(m, i)), Plus(ap(a, i), ap(b, i)), ap(c, i)))
        ),
    )
    active = ForAll([i], ap(m, i)) if valid else ForAll([i], Implies(LT(Int(0), i), ap(m, i)))
    hyp = And(update, active, GE(n, Int(1)), LE(Int(0), j), LT(j, n))
    vc = Implies(hyp, Equals(ap(cp, j), Plus(ap(a, j), ap(b, j))))
    terms = {"n": n, "j": j, "a(j)": ap(a, j), "b(j)": ap(b, j), "c'(j)": ap(cp, j), "m(j)": ap(m, j)}
    return vc, list(terms.values()), terms


def smt_div(x: int, y: int) -> int:
    """SMT-LIB integer division: x = y*q + r with 0 <= r < |y|."""
    q = x // y
    if x - y * q < 0:
        q += 1
    return q


def evaluate(term: FNode, known: Mapping[FNode, int | bool]) -> int | bool:
    """Evaluate a ground term; subterms in `known` (e.g. f(x)) take their given value."""
    if term in known:
        return known[term]
    if term.is_int_constant() or term.is_bool_constant():
        value: int | bool = term.constant_value()
        return value
    args = [evaluate(a, known) for a in term.args()]
    if term.is_plus():
        return sum(int(a) for a in args)
    if term.is_minus():
        return int(args[0]) - int(args[1])
    if term.is_times():
        out = 1
        for a in args:
            out *= int(a)
        return out
    if term.is_div():
        return smt_div(int(args[0]), int(args[1]))
    if term.is_equals() or term.is_iff():
        return args[0] == args[1]
    if term.is_le():
        return int(args[0]) <= int(args[1])
    if term.is_lt():
        return int(args[0]) < int(args[1])
    if term.is_and():
        return all(args)
    if term.is_or():
        return any(args)
    if term.is_not():
        return not args[0]
    if term.is_implies():
        return (not args[0]) or bool(args[1])
    if term.is_ite():
        return args[1] if args[0] else args[2]
    raise AssertionError(f"cannot evaluate {term}")
