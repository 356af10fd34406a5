"""VC size: the DAG of each VC grows linearly with the program (H-IF threads Q through both
branches without copying it; hypotheses are shared nodes)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from pipeline_kit import dag_size, kernel

from hoaregpu.driver import fresh_env
from hoaregpu.vc.generate import generate

SIZES = (5, 10, 20, 40)


def ifs(k: int) -> str:
    body = "\n".join(
        f"    if (a[tid] > {i}) {{ a[tid] = a[tid] + {i}; }} else {{ b[0] = {i}; }}" for i in range(k)
    )
    return f"/*@ ensures a[0] >= b[0]; */\n__global__ void k(int *a, int *b) {{\n{body}\n}}\n"


def assigns(k: int) -> str:
    body = "\n".join(f"    x = x + a[x % {i + 2}];\n    a[tid] = x;" for i in range(k))
    return f"/*@ ensures x == a[0]; */\n__global__ void k(int *a) {{\n    int x = tid;\n{body}\n}}\n"


def asserts(k: int) -> str:
    body = "\n".join(f"    if (tid < {i}) {{ a[tid] = {i}; }}\n    //@ assert a[0] >= 0;" for i in range(k))
    return f"__global__ void k(int *a) {{\n{body}\n}}\n"


def loops(k: int) -> str:
    body = "\n".join(
        f"    /*@ loop invariant i{i} <= {i}; */\n"
        f"    for (int i{i} = 0; i{i} < {i}; i{i}++) {{ a[tid] = a[tid] + i{i}; }}"
        for i in range(k)
    )
    return f"/*@ ensures a[0] >= 0; */\n__global__ void k(int *a) {{\n{body}\n}}\n"


def max_vc_size(src: str) -> tuple[int, int]:
    """(number of VCs, size of the largest VC's DAG)."""
    with fresh_env() as env:
        vcs = generate(kernel(src), env)
        return len(vcs), max(dag_size(vc.formula) for vc in vcs)


@pytest.mark.parametrize("make", [ifs, assigns, asserts, loops], ids=lambda f: f.__name__)
def test_vc_dag_size_grows_at_most_linearly(make: Callable[[int], str]) -> None:
    sizes = {k: max_vc_size(make(k))[1] for k in SIZES}
    assert sizes[5] < sizes[10] < sizes[20] < sizes[40]  # it does grow with the program
    for small, big in ((5, 10), (10, 20), (20, 40)):
        assert sizes[big] / sizes[small] < 2.5, sizes
    # Linear: each statement adds about the same number of nodes.
    per_stmt_late = (sizes[40] - sizes[20]) / 20
    per_stmt_early = (sizes[10] - sizes[5]) / 5
    assert per_stmt_late < 1.5 * per_stmt_early + 10, sizes


def test_number_of_vcs_is_one_per_clause_occurrence() -> None:
    assert max_vc_size(asserts(20))[0] == 20
    assert max_vc_size(loops(10))[0] == 2 * 10 + 1  # entry + preserved per loop, one postcondition
    assert max_vc_size(ifs(40))[0] == 1


def test_dag_size_counts_shared_nodes_once() -> None:
    from pysmt.shortcuts import And, Int, Plus, Symbol
    from pysmt.typing import INT

    with fresh_env():
        x = Symbol("x", INT)
        s = Plus(x, Int(1))
        # And(s > 0, s < 5) shares s: nodes are x, 1, x+1, 0, 5, two comparisons, And.
        from pysmt.shortcuts import GT, LT

        assert dag_size(And(GT(s, Int(0)), LT(s, Int(5)))) == 8
