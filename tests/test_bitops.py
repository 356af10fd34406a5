"""Bit operators `& | ^ ~`, compound `&= |= ^=` and shifts by variable amounts
(`hoaregpu/smt/bitops.py`): exact encodings where kernels need them, uninterpreted
approximations elsewhere, whose refutations count only when execution confirms them."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest
from pipeline_kit import source
from pysmt.shortcuts import And, Equals, Int, Symbol, get_env, is_valid
from pysmt.typing import INT

from hoaregpu.driver import KernelResult, VerifyOptions, fresh_env, verify
from hoaregpu.interp.evaluate import EvalError, binop_scalar, c_shl
from hoaregpu.smt import bitops
from hoaregpu.smt.approx import approximations
from hoaregpu.solvers import Outcome, SolverOptions
from hoaregpu.terms import Binary, BinOp, IntLit, Var


def run(tmp_path: Path, src: str, solver: str = "z3") -> KernelResult:
    path = tmp_path / "k.cu"
    path.write_text(source(src))
    result = verify([str(path)], VerifyOptions(solver=solver, solver_options=SolverOptions(timeout=20.0)))
    assert not result.errors, [e.render() for e in result.errors]
    (kernel,) = result.kernels
    return kernel


def outcomes(k: KernelResult) -> list[tuple[str, int, Outcome]]:
    return [(r.vc.origin.kind.value, r.vc.origin.span.line, r.result.outcome) for r in k.results]


# -- the encodings, against Python's two's complement operators ------------------------------


def test_and_with_a_constant_is_exact_for_every_sign() -> None:
    rng = random.Random(7)
    consts = [0, 1, 3, 31, 255, 0xF0, 0x5A5A, 2**31 - 1, 2**32 - 1, -1, -4, -256, ~0x0F0F, 12345]
    with fresh_env():
        mgr = get_env().formula_manager
        for c in consts:
            xs = [rng.randint(-(2**40), 2**40) for _ in range(12)] + [0, -1, 1, c, -c]
            facts = [Equals(bitops.and_const(mgr, Int(x), c), Int(x & c)) for x in xs]
            assert is_valid(And(facts), solver_name="z3"), c


def test_or_xor_and_not_with_constants_are_exact() -> None:
    rng = random.Random(3)
    with fresh_env():
        mgr = get_env().formula_manager
        for _ in range(30):
            x, c = rng.randint(-5000, 5000), rng.choice([5, -7, 255, 1, -1, 2**32 - 1])
            for op, want in ((BinOp.BOR, x | c), (BinOp.BXOR, x ^ c), (BinOp.BAND, x & c)):
                t = Binary(op, Var("x"), IntLit(c))
                enc = bitops.bitwise(mgr, t, Int(x), Int(c))
                assert is_valid(Equals(enc, Int(want)), solver_name="z3"), (x, op, c)


def test_power_of_two_test_decides_zero_below_2_to_the_64() -> None:
    with fresh_env():
        mgr = get_env().formula_manager
        x = Symbol("x", INT)
        t = Binary(BinOp.BAND, Var("x"), Binary(BinOp.SUB, Var("x"), IntLit(1)))
        enc = bitops.bitwise(mgr, t, x, mgr.Minus(x, Int(1)))
        for v in [0, 1, 2, 3, 6, 64, 96, 1023, 1024, 2**40, 2**40 + 2**39, 2**63]:
            value = enc.substitute({x: Int(v)})
            if v & (v - 1) == 0:
                assert is_valid(Equals(value, Int(0)), solver_name="z3"), v
            else:  # x with its lowest bit cleared: known to be in [1, x - 1]
                in_range = mgr.And(mgr.LE(Int(1), value), mgr.LE(value, Int(v - 1)))
                assert is_valid(in_range, solver_name="z3"), v


def test_variable_shifts_are_exact_for_amounts_0_to_63() -> None:
    with fresh_env():
        mgr = get_env().formula_manager
        k = Symbol("k", INT)
        for op in (BinOp.SHL, BinOp.SHR):
            for x in (5, -5, 1):
                t = Binary(op, IntLit(x), Var("k"))
                enc = bitops.shift(mgr, t, Int(x), k)
                for n in (0, 1, 7, 31, 63):
                    want = x << n if op is BinOp.SHL else x >> n
                    assert is_valid(Equals(enc.substitute({k: Int(n)}), Int(want)), solver_name="z3")
                assert approximations(enc)  # outside 0..63 it is unknown


def test_constant_operands_need_no_approximation() -> None:
    with fresh_env():
        mgr = get_env().formula_manager
        x = Symbol("x", INT)
        exact = bitops.bitwise(mgr, Binary(BinOp.BAND, Var("x"), IntLit(31)), x, Int(31))
        assert approximations(exact) == ()
        two = bitops.bitwise(mgr, Binary(BinOp.BAND, Var("x"), Var("y")), x, Symbol("y", INT))
        assert approximations(two) == ("bitwise '&' of two non-constant operands",)


def test_interpreter_is_twos_complement_and_rejects_huge_shifts() -> None:
    for op, want in ((BinOp.BAND, -6 & 13), (BinOp.BOR, -6 | 13), (BinOp.BXOR, -6 ^ 13)):
        assert binop_scalar(op, -6, 13, None) == want
    assert binop_scalar(BinOp.BAND, 2**32 - 1, 0xFF, None) == 0xFF
    assert binop_scalar(BinOp.SHR, -9, 2, None) == -3  # arithmetic shift floors
    with pytest.raises(EvalError, match="width"):
        c_shl(1, 64)
    with pytest.raises(EvalError, match="negative"):
        c_shl(1, -1)


# -- kernels ---------------------------------------------------------------------------------

LANE = """
    /*@ requires blockDim.x == 64;
        ensures \\forall int j; 0 <= j < 64 ==> a[j] == j % 32;
        ensures \\forall int j; 0 <= j < 64 ==> b[j] == j + 1 - 2 * (j % 2) && b[j] == (j | 1) - (j & 1);
        ensures \\forall int j; 0 <= j < 64 ==> c[j] == -j - 1;
    */
    __global__ void lane(int *a, int *b, int *c) {
        unsigned int lane = threadIdx.x & 31;
        a[threadIdx.x] = lane;
        int v = threadIdx.x;
        v |= 1;
        b[threadIdx.x] = v - (threadIdx.x & 1);
        c[threadIdx.x] = ~(int)threadIdx.x;
    }
"""


def test_constant_masks_verify(tmp_path: Path) -> None:
    k = run(tmp_path, LANE)
    assert k.verdict == "verified", outcomes(k)
    assert all(not r.vc.approximations for r in k.results)


def test_planted_mask_bug_is_refuted_and_confirmed(tmp_path: Path) -> None:
    k = run(tmp_path, LANE.replace("threadIdx.x & 31", "threadIdx.x & 15"))
    assert k.verdict == "failed"
    refuted = [r for r in k.results if r.result.outcome is Outcome.REFUTED]
    assert [r.vc.origin.span.line for r in refuted] == [2]


POW2 = """
    /*@ requires blockDim.x == 4;
        requires (n & (n - 1)) == 0 && n > 0 && n <= 1024;
        requires 0 <= k && k < 10;
        ensures n % 2 == 0 || n == 1;
        ensures p >= 1 && p <= 512;
        ensures \\forall int j; 0 <= j < blockDim.x ==> a[j] == j * p;
        ensures \\forall int j; 0 <= j < blockDim.x ==> b[j] == j / p;
    */
    __global__ void shifts(int *a, int *b, int n, int k) {
        int p = 1 << k;
        a[threadIdx.x] = threadIdx.x << k;
        b[threadIdx.x] = threadIdx.x >> k;
    }
"""


@pytest.mark.parametrize("solver", ["z3", "cvc5"])
def test_variable_shifts_and_power_of_two_test_verify(tmp_path: Path, solver: str) -> None:
    k = run(tmp_path, POW2, solver)
    assert k.verdict == "verified", outcomes(k)


def test_wrong_shift_postcondition_is_refuted(tmp_path: Path) -> None:
    k = run(tmp_path, POW2.replace("b[j] == j / p", "b[j] == j / p + (j == 3 && p == 2)"))
    assert [(kind, line) for kind, line, o in outcomes(k) if o is Outcome.REFUTED] == [("postcondition", 7)]
    (r,) = [r for r in k.results if r.result.outcome is Outcome.REFUTED]
    assert r.replay is not None and r.replay.confirmed


def test_refutation_through_an_uninterpreted_and_is_undecided_not_failed(tmp_path: Path) -> None:
    # true in C (& is associative), but the encoding of x & (y & z) knows only ranges
    k = run(
        tmp_path,
        """
        /*@ requires x >= 0 && y >= 0 && z >= 0;
            ensures r1 == (r2 & z);
            ensures r1 <= x && r1 >= 0;
            ensures (x & y) + (x | y) == x + y;
        */
        __global__ void assoc(int x, int y, int z) {
            int r1 = x & (y & z);
            int r2 = x & y;
        }
        """,
    )
    assert outcomes(k) == [
        ("postcondition", 2, Outcome.UNKNOWN),
        ("postcondition", 3, Outcome.PROVED),
        ("postcondition", 4, Outcome.PROVED),
    ]
    assert k.verdict == "unknown"
    assert "uninterpreted" in k.results[0].result.message


def test_wrong_claim_about_an_uninterpreted_and_is_confirmed_by_execution(tmp_path: Path) -> None:
    k = run(
        tmp_path,
        """
        /*@ requires x >= 0 && y >= 0;
            ensures r == x;
        */
        __global__ void wrong(int x, int y) {
            int r = x & y;
        }
        """,
    )
    assert k.verdict == "failed"
    (r,) = k.results
    assert r.vc.approximations and r.replay is not None and r.replay.confirmed


def test_bool_operands_are_logical(tmp_path: Path) -> None:
    k = run(
        tmp_path,
        """
        /*@ ensures \\forall int j; 0 <= j < blockDim.x ==> a[j] == (j == 1 || j == 2 ? 1 : 0);
            ensures \\forall int j; 0 <= j < blockDim.x ==> b[j] == (j != 1 ? 1 : 0);
        */
        __global__ void logical(int *a, int *b) {
            bool one = threadIdx.x == 1;
            a[threadIdx.x] = one | (threadIdx.x == 2);
            b[threadIdx.x] = one ^ true;
        }
        """,
    )
    assert k.verdict == "verified", outcomes(k)
    assert all(not r.vc.approximations for r in k.results)


def test_unsigned_not_stays_in_range(tmp_path: Path) -> None:
    k = run(
        tmp_path,
        """
        /*@ requires blockDim.x == 4;
            ensures \\forall int j; 0 <= j < 4 ==> a[j] == 4294967295 - j;
        */
        __global__ void unot(unsigned *a) {
            unsigned m = ~threadIdx.x;
            a[threadIdx.x] = m;
        }
        """,
    )
    assert k.verdict == "verified", outcomes(k)


@pytest.mark.skipif(shutil.which("cc") is None and shutil.which("c++") is None, reason="no C compiler")
def test_interpreter_agrees_with_native_execution(tmp_path: Path) -> None:
    from hoaregpu.cli import main

    path = tmp_path / "k.cu"
    path.write_text(source(LANE))
    assert main(["test", str(path), "--native", "--threads", "64..64", "--trials", "5"]) == 0
