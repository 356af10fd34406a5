"""Finite expansion of thread quantifiers (`ExpandThreadQuantifiers`)."""

from __future__ import annotations

import pytest
from pipeline_kit import PROVED, REFUTED, decide, kernel
from pysmt.fnode import FNode
from pysmt.shortcuts import (
    LE,
    LT,
    And,
    Exists,
    ForAll,
    Function,
    Implies,
    Int,
    Or,
    Symbol,
)
from pysmt.typing import BOOL, INT, FunctionType

from hoaregpu.driver import fresh_env
from hoaregpu.smt.expand import MAX_EXPANSION, ExpandThreadQuantifiers
from hoaregpu.vc.generate import generate

P = FunctionType(BOOL, [INT])
Q = FunctionType(BOOL, [INT, INT])


def in_range(i: FNode, k: FNode) -> FNode:
    return And(LE(Int(0), i), LT(i, k))


def count_quantifiers(f: FNode) -> int:
    seen: set[int] = set()
    stack, n = [f], 0
    while stack:
        g = stack.pop()
        if g.node_id() in seen:
            continue
        seen.add(g.node_id())
        n += g.is_quantifier()
        stack.extend(g.args())
    return n


def test_bounded_forall_becomes_its_instances() -> None:
    with fresh_env() as env:
        p, i = Symbol("p", P), Symbol("i", INT)
        f = ForAll([i], Implies(in_range(i, Int(3)), Function(p, [i])))
        out = ExpandThreadQuantifiers(env).walk(f)
        expected = And([Implies(in_range(Int(t), Int(3)), Function(p, [Int(t)])) for t in range(3)])
        assert out == expected
        assert count_quantifiers(out) == 0


def test_bounded_exists_becomes_a_disjunction() -> None:
    with fresh_env() as env:
        p, i = Symbol("p", P), Symbol("i", INT)
        body = And(in_range(i, Int(2)), Function(p, [i]))
        out = ExpandThreadQuantifiers(env).walk(Exists([i], body))
        assert out == Or([body.substitute({i: Int(t)}) for t in range(2)])


def test_guard_with_more_conjuncts_like_a_mask_is_expanded() -> None:
    with fresh_env() as env:
        p, z, i = Symbol("p", P), Symbol("z", P), Symbol("i", INT)
        guard = And(in_range(i, Int(2)), Function(z, [i]))
        out = ExpandThreadQuantifiers(env).walk(ForAll([i], Implies(guard, Function(p, [i]))))
        assert out.is_and() and len(out.args()) == 2 and count_quantifiers(out) == 0


def test_nested_bounded_quantifiers_all_expand() -> None:
    with fresh_env() as env:
        q, i, j = Symbol("q", Q), Symbol("i", INT), Symbol("j", INT)
        inner = ForAll([j], Implies(in_range(j, Int(2)), Function(q, [i, j])))
        f = ForAll([i], Implies(in_range(i, Int(3)), inner))
        out = ExpandThreadQuantifiers(env).walk(f)
        assert count_quantifiers(out) == 0
        apps = {a for a in _subterms(out) if a.is_function_application()}
        assert apps == {Function(q, [Int(a), Int(b)]) for a in range(3) for b in range(2)}


def _subterms(f: FNode) -> set[FNode]:
    out: set[FNode] = set()
    stack = [f]
    while stack:
        g = stack.pop()
        if g not in out:
            out.add(g)
            stack.extend(g.args())
    return out


@pytest.mark.parametrize(
    "shape",
    [
        "symbolic bound",
        "no lower bound",
        "lower bound 1",
        "two variables",
        "too many",
        "no guard",
        "exists-imp",
    ],
)
def test_quantifiers_that_are_not_finite_thread_ranges_are_left_alone(shape: str) -> None:
    with fresh_env() as env:
        p, q = Symbol("p", P), Symbol("q", Q)
        i, j, n = Symbol("i", INT), Symbol("j", INT), Symbol("n", INT)
        pi = Function(p, [i])
        f = {
            "symbolic bound": ForAll([i], Implies(in_range(i, n), pi)),
            "no lower bound": ForAll([i], Implies(LT(i, Int(3)), pi)),
            "lower bound 1": ForAll([i], Implies(And(LE(Int(1), i), LT(i, Int(3))), pi)),
            "two variables": ForAll([i, j], Implies(in_range(i, Int(2)), Function(q, [i, j]))),
            "too many": ForAll([i], Implies(in_range(i, Int(MAX_EXPANSION + 1)), pi)),
            "no guard": ForAll([i], pi),
            "exists-imp": Exists([i], Implies(in_range(i, Int(2)), pi)),
        }[shape]
        assert ExpandThreadQuantifiers(env).walk(f) == f


def test_max_expansion_is_still_expanded() -> None:
    with fresh_env() as env:
        p, i = Symbol("p", P), Symbol("i", INT)
        f = ForAll([i], Implies(in_range(i, Int(MAX_EXPANSION)), Function(p, [i])))
        out = ExpandThreadQuantifiers(env).walk(f)
        assert count_quantifiers(out) == 0 and len(out.args()) == MAX_EXPANSION


KERNELS = {
    "race": """
        /*@ ensures a[0] == 0 || a[0] == 1;
            ensures a[0] == 1;
        */
        __global__ void k(int *a) { a[0] = tid; }
        """,
    "masked": """
        /*@ ensures \\forall int j; 0 <= j < blockDim.x ==> a[j] == (j < 1 ? 7 : \\old(a[j]));
            ensures a[1] == 7;
        */
        __global__ void k(int *a) {
            if (tid < 1) { a[tid] = 7; __syncthreads(); }
        }
        """,
    "loop": """
        /*@ ensures i == tid;
            ensures \\exists int t; 0 <= t < blockDim.x && i == t + 1;
        */
        __global__ void k() {
            int i = 0;
            /*@ loop invariant 0 <= i && i <= tid; */
            while (i < tid) { i = i + 1; }
        }
        """,
}


@pytest.mark.parametrize("name", sorted(KERNELS))
def test_vc_verdicts_are_unchanged_by_expansion(name: str) -> None:
    with fresh_env() as env:
        vcs = generate(kernel(KERNELS[name]), env, 2)
        expand = ExpandThreadQuantifiers(env)
        plain = [vc.formula for vc in vcs]
        expanded = [expand.walk(f) for f in plain]
        assert sum(map(count_quantifiers, expanded)) < sum(map(count_quantifiers, plain))
        results = decide(plain + expanded)
    before, after = results[: len(plain)], results[len(plain) :]
    assert before == after
    assert set(before) <= {PROVED, REFUTED}  # decided both ways, so the comparison means something
    assert REFUTED in before and PROVED in before
