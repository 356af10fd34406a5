"""Aggregates in proof formulas: the text format, and the binder `k` of
`\\sum(lo, hi, \\lambda int k; e)` in renaming (H-ASSIGN's φ[x'/x]), substitution (H-IF's
z := e), α-equivalence, free variables and the thread reading."""

from __future__ import annotations

import pytest

from hoaregpu.proof.formula import Agg, Bin, Name, Num, Old
from hoaregpu.proof.formula_ops import (
    alpha_eq,
    current_vars,
    free_names,
    is_per_thread,
    old_vars,
    rename_var,
    subst_name,
)
from hoaregpu.proof.parse import SyntaxErr, parse_formula_text
from hoaregpu.proof.syntax import show
from hoaregpu.terms import AggKind, BinOp

P = parse_formula_text

ROUND_TRIP = [
    r"\sum(0, n - 1, \lambda int k; a[k])",
    r"\product(1, n, \lambda int k; k)",
    r"\numof(0, ntid - 1, \lambda int k; pos[k] != 0)",
    r"\max(0, 2 * ntid - 1, \lambda int k; \old(a[k]))",
    r"\min(lo, hi, \lambda int k; a[k] < 0 ? -a[k] : a[k])",
    # nested, under a quantifier, with \old and @ inside, in a thread reading
    r"\forall int j; 0 <= j && j < n ==> a[j] == \sum(0, j, \lambda int i; \sum(0, i, \lambda int k; b[k]))",
    r"\sum(0 >= j - d @ 0 + 1 ? 0 : j - d @ 0 + 1, j, \lambda int k; \old(a[k]))",
    r"\forall int t; 0 <= t && t < ntid ==> (x == \sum(0, tid, \lambda int k; y @ k)) @ t",
    r"\sum(0, n, \lambda int k; \forall int j; a[j] <= a[k]) + 1 == 2",
    r"-\sum(0, n, \lambda int k; a[k]) * 2 < \numof(0, n, \lambda int k; k % 2 == 0)",
]


@pytest.mark.parametrize("text", ROUND_TRIP)
def test_print_parse_round_trip(text: str) -> None:
    f = P(text)
    assert show(f) == text
    assert P(show(f)) == f


def test_parsed_structure() -> None:
    f = P(r"\sum(0, n - 1, \lambda int k; a[k]) + 1")
    assert isinstance(f, Bin) and f.op is BinOp.ADD
    assert f.left == Agg(AggKind.SUM, Num(0), Bin(BinOp.SUB, Name("n"), Num(1)), "k", Name("a", (Name("k"),)))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (r"\sum(0, n)", r"takes a range and a '\lambda'"),
        (r"\sum(0, n, k)", r"expected '\lambda'"),
        (r"\sum(0, n, \lambda k; a[k])", "expected 'int'"),
        (r"\lambda int k; k", r"'\lambda' may only stand"),
        (r"\sum(0, n, \lambda int k; a[k]", "expected ')'"),
        (r"\summ(0, n, \lambda int k; a[k])", "unexpected character"),
    ],
)
def test_syntax_errors(text: str, message: str) -> None:
    with pytest.raises(SyntaxErr) as e:
        P(text)
    assert message in e.value.message


# ---------------------------------------------------------------- the binder


def test_rename_goes_into_the_body_but_not_under_the_binder() -> None:
    # H-ASSIGN for `a[tid] := ...`: the array read in the body is renamed
    f = P(r"\sum(0, n, \lambda int k; a[k] + k)")
    assert show(rename_var(f, "a", "a'1")) == r"\sum(0, n, \lambda int k; a'1[k] + k)"
    # H-ASSIGN for a scalar `k := ...`: the bound k is not the variable; the bound is
    f = P(r"\sum(0, k, \lambda int k; a[k] + k)")
    assert show(rename_var(f, "k", "k'1")) == r"\sum(0, k'1, \lambda int k; a[k] + k)"
    # \old(a[k]) is the initial state: never renamed
    f = P(r"\sum(0, n, \lambda int k; \old(a[k]) + a[k])")
    assert show(rename_var(f, "a", "a'2")) == r"\sum(0, n, \lambda int k; \old(a[k]) + a'2[k])"


def test_substitution_avoids_capture_by_the_binder() -> None:
    # z := k with the binder named k: the binder is renamed, the substituted k stays free
    f = P(r"\sum(0, n, \lambda int k; z + k)")
    g = subst_name(f, "z", Name("k"))
    assert isinstance(g, Agg) and g.name != "k"
    assert show(g) == rf"\sum(0, n, \lambda int {g.name}; k + {g.name})"
    assert free_names(g) == {"n", "k"}
    # the binder shadows the substituted name in the body, not in the bounds
    f = P(r"\sum(0, z, \lambda int z; a[z] + z)")
    assert show(subst_name(f, "z", Num(3))) == r"\sum(0, 3, \lambda int z; a[z] + z)"
    # an array of the same name is no bound integer
    f = P(r"\sum(0, n, \lambda int k; z[k] + z)")
    assert show(subst_name(f, "z", Num(1))) == r"\sum(0, n, \lambda int k; z[k] + 1)"


def test_alpha_equivalence_renames_binders() -> None:
    assert alpha_eq(P(r"\sum(0, n, \lambda int k; a[k])"), P(r"\sum(0, n, \lambda int i; a[i])"))
    assert not alpha_eq(P(r"\sum(0, n, \lambda int k; a[k])"), P(r"\sum(0, n, \lambda int i; a[k])"))
    assert not alpha_eq(P(r"\sum(0, n, \lambda int k; a[k])"), P(r"\product(0, n, \lambda int k; a[k])"))
    nested_a = P(r"\sum(0, n, \lambda int i; \sum(0, i, \lambda int k; b[k] + i))")
    nested_b = P(r"\sum(0, n, \lambda int k; \sum(0, k, \lambda int i; b[i] + k))")
    assert alpha_eq(nested_a, nested_b)


def test_free_and_current_variables_respect_the_binder() -> None:
    f = P(r"\sum(0, k, \lambda int k; a[k] + k + \old(b[k]))")
    assert free_names(f) == {"k", "a", "b"}  # k free in the bound only
    assert current_vars(P(r"\sum(0, n, \lambda int k; a[k] + k)")) == {"n", "a"}
    # the bound k is not a variable read under \old (no `\old(k) == k` in the root's PRE)
    assert old_vars(P(r"\sum(0, n, \lambda int k; \old(a[k]))")) == {"a"}
    assert old_vars(Old(Name("k"))) == {"k"}


def test_thread_reading_respects_the_binder() -> None:
    def local(name: str) -> bool:
        return name in ("k", "x")

    assert not is_per_thread(P(r"\sum(0, n, \lambda int k; a[k] + k)"), local)
    assert is_per_thread(P(r"\sum(0, n, \lambda int k; a[k] + x)"), local)
    assert is_per_thread(P(r"\sum(0, k, \lambda int i; a[i])"), local)
    assert not is_per_thread(P(r"\sum(0, n, \lambda int i; x @ i)"), local)
