"""Terms thousands deep (a sum written out over 1,024 threads) never hit a recursion limit."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from pipeline_kit import kernel

from hoaregpu.deep import deep
from hoaregpu.driver import VerifyOptions, fresh_env, verify
from hoaregpu.smt.encode import Encoder
from hoaregpu.solvers import SolverOptions
from hoaregpu.terms import Binary, BinOp, IntLit, Term, ThreadId

DEPTH = 5 * sys.getrecursionlimit()


def left_chain(op: BinOp, leaves: list[Term]) -> Term:
    t = leaves[0]
    for x in leaves[1:]:
        t = Binary(op, t, x)
    return t


def test_a_deep_chain_is_encoded_node_for_node() -> None:
    k = kernel("__global__ void k(int *a) { a[tid] = 0; }")
    chain = left_chain(BinOp.ADD, [IntLit(i) for i in range(DEPTH)])
    with fresh_env() as env:
        enc = Encoder(k, env, 4)
        out = enc.at(chain, env.formula_manager.Int(0))
        depth = 0
        while out.is_plus():  # the same left-nested binary nodes as the term
            assert len(out.args()) == 2 and out.arg(1).constant_value() == DEPTH - 1 - depth
            out, depth = out.arg(0), depth + 1
        assert depth == DEPTH - 1 and out.constant_value() == 0
        assert not enc.is_per_thread(chain)
        assert enc.is_per_thread(Binary(BinOp.ADD, chain, ThreadId(0)))


def test_deep_gives_room_and_passes_results_and_errors() -> None:
    def down(n: int) -> int:
        return 0 if n == 0 else 1 + down(n - 1)

    with pytest.raises(RecursionError):
        down(DEPTH)
    assert deep(lambda: down(DEPTH)) == DEPTH
    with pytest.raises(ZeroDivisionError):
        deep(lambda: 1 // 0)
    assert sys.getrecursionlimit() < DEPTH  # restored


def test_a_spec_with_a_sum_written_out_1200_terms_long(tmp_path: Path) -> None:
    terms = " + ".join(f"\\old(a[{i}])" for i in range(1200))
    path = tmp_path / "sum.cu"
    path.write_text(f"""/*@ requires blockDim.x == 2;
    ensures a[0] == {terms} - ({terms}) + \\old(a[0]);
*/
__global__ void k(int *a) {{ }}
""")
    run = verify([str(path)], VerifyOptions(solver="z3", solver_options=SolverOptions(timeout=20)))
    assert not run.errors and [k.verdict for k in run.kernels] == ["verified"]
