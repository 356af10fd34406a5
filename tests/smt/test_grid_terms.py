"""Thread numbers to coordinates and back (`smt/grid_terms.py`) on fixed and open grids."""

from __future__ import annotations

import pytest
from pipeline_kit import PROVED, decide, lower
from pysmt.fnode import FNode
from pysmt.operators import DIV
from pysmt.shortcuts import And, Iff, Implies
from pysmt.typing import INT

from hoaregpu.driver import fresh_env
from hoaregpu.launch import Launch
from hoaregpu.smt.encode import Encoder

KERNEL = lower(
    """
    __global__ void g(int *a) {
        a[0] = blockIdx.x + blockIdx.y + threadIdx.x + threadIdx.y;
    }
    """
)

LAUNCHES = {
    "2x2 blocks, 2x3 grid": Launch((2, 2, 1), (2, 3, 1)),
    "2x2 blocks, 2 x open grid": Launch((2, 2, 1), (2, None, 1)),
    "open blocks, 2x3 grid": Launch((None, 2, 1), (2, 3, 1)),
}


def _has_div(f: FNode) -> bool:
    return any(n.node_type() == DIV for n in _nodes(f))


def _nodes(f: FNode) -> list[FNode]:
    out, todo = [], [f]
    while todo:
        n = todo.pop()
        out.append(n)
        todo.extend(n.args())
    return out


@pytest.mark.parametrize("launch", list(LAUNCHES))
def test_a_constant_thread_number_is_decomposed_as_the_symbolic_one_says(launch: str) -> None:
    """`e @ (b, t)` with constants b, t: the coordinates are folded where the sizes allow it
    (0 div n is 0 for every size n >= 1; a constant over a constant is a constant), so `m @
    (0, 0)` holds no `0 div gridDim.y`, which z3 leaves nonlinear. The folded thread number
    and range condition are the unfolded ones (the same function applied to symbols, then
    the constants substituted) under the size facts every VC assumes."""
    with fresh_env() as env:
        enc = Encoder(KERNEL, env, LAUNCHES[launch])
        m = enc.mgr
        b, t = m.Symbol("b", INT), m.Symbol("t", INT)
        general, general_inside = enc.grid_thread(b, t)
        assert general_inside is not None
        sizes = And(enc.size_facts())
        formulas = []
        for block in range(4):
            for thread in range(5):
                number, inside = enc.grid_thread(m.Int(block), m.Int(thread))
                assert inside is not None
                if (block, thread) == (0, 0) or launch == "2x2 blocks, 2x3 grid":  # nothing left to divide
                    assert not _has_div(number) and not _has_div(inside), (block, thread)
                pin = {b: m.Int(block), t: m.Int(thread)}
                formulas.append(Implies(sizes, Iff(inside, general_inside.substitute(pin))))
                formulas.append(Implies(And(sizes, inside), m.Equals(number, general.substitute(pin))))
        assert decide(formulas, timeout=20.0) == [PROVED] * len(formulas)
