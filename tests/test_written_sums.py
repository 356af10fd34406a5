"""Sums written out term by term read as `\\sum` (`hoaregpu.written_sums`): the same integer
for every array, only for long runs of consecutive cells, and no capture of the binder."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from hoaregpu.term_walk import subterms
from hoaregpu.terms import AggKind, Aggregate, Binary, BinOp, IntLit, Old, Term, Var
from hoaregpu.written_sums import MIN_RUN, fold_written_sums


def cell(name: str, i: int, old: bool = True) -> Term:
    v = Var(name, (IntLit(i),))
    return Old(v) if old else v


def chain(terms: list[Term]) -> Term:
    out = terms[0]
    for t in terms[1:]:
        out = Binary(BinOp.ADD, out, t)
    return out


def balanced(terms: list[Term]) -> Term:
    if len(terms) == 1:
        return terms[0]
    mid = len(terms) // 2
    return Binary(BinOp.ADD, balanced(terms[:mid]), balanced(terms[mid:]))


def value(t: Term, now: dict[str, list[int]], old: dict[str, list[int]], env: dict[str, int]) -> int:
    """A small evaluator of its own (no hoaregpu code), for the terms these tests build."""
    if isinstance(t, IntLit):
        return t.value
    if isinstance(t, Old):
        return value(t.term, old, old, env)
    if isinstance(t, Var):
        if not t.indices:
            return env[t.name]
        return now[t.name][value(t.indices[0], now, old, env)]
    if isinstance(t, Binary) and t.op is BinOp.ADD:
        return value(t.left, now, old, env) + value(t.right, now, old, env)
    if isinstance(t, Binary) and t.op is BinOp.EQ:
        return int(value(t.left, now, old, env) == value(t.right, now, old, env))
    assert isinstance(t, Aggregate) and t.kind is AggKind.SUM
    lo, hi = value(t.low, now, old, env), value(t.high, now, old, env)
    return sum(value(t.body, now, old, {**env, t.name: k}) for k in range(lo, hi + 1))


def aggregates(t: Term) -> list[Aggregate]:
    return [s for s in subterms(t) if isinstance(s, Aggregate)]


def test_a_long_chain_of_consecutive_cells_is_one_sum() -> None:
    terms = [cell("a", i) for i in range(1024)]
    for shape in (chain, balanced):
        folded = fold_written_sums(Binary(BinOp.EQ, Var("a", (IntLit(0),)), shape(terms)))
        (agg,) = aggregates(folded)
        assert (agg.low, agg.high) == (IntLit(0), IntLit(1023))
        assert agg.body == Old(Var("a", (Var(agg.name),)))


def test_short_runs_and_broken_runs_stay_as_written() -> None:
    short = chain([cell("a", i) for i in range(MIN_RUN - 1)])
    assert fold_written_sums(short) == short
    gap = chain([cell("a", i) for i in range(MIN_RUN)] + [cell("a", MIN_RUN + 1)])
    (agg,) = aggregates(fold_written_sums(gap))
    assert agg.high == IntLit(MIN_RUN - 1)  # the cell after the gap stays a term of its own
    mixed = chain([cell("a", i, old=i % 2 == 0) for i in range(2 * MIN_RUN)])
    assert not aggregates(fold_written_sums(mixed))


def test_the_binder_is_a_name_the_formula_does_not_use() -> None:
    terms = [cell("k", i) for i in range(MIN_RUN)] + [Var("k1")]
    (agg,) = aggregates(fold_written_sums(chain(terms)))
    assert agg.name not in ("k", "k1")


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(["a", "b"]), st.booleans(), st.integers(0, 80), st.integers(1, 70)),
        min_size=1,
        max_size=4,
    ),
    st.lists(st.integers(-1000, 1000), min_size=160, max_size=160),
    st.lists(st.integers(-1000, 1000), min_size=160, max_size=160),
    st.booleans(),
)
def test_folding_keeps_the_value(
    runs: list[tuple[str, bool, int, int]], xs: list[int], ys: list[int], tree: bool
) -> None:
    terms = [cell(name, start + i, old) for name, old, start, length in runs for i in range(length)]
    term = (balanced if tree else chain)(terms)
    now = {"a": xs, "b": ys}
    old = {"a": list(reversed(xs)), "b": list(reversed(ys))}
    assert value(fold_written_sums(term), now, old, {}) == value(term, now, old, {})
