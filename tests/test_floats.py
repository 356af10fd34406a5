"""`float`/`double` as opaque values (`hoaregpu/floats.py`): copies exact, operations
uninterpreted for the prover and IEEE in the interpreter; a refutation through float
operations counts only when execution confirms it, and no float kernel is verified by
reasoning about codes."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest
from pipeline_kit import lower, source

from hoaregpu import core
from hoaregpu.cli import main
from hoaregpu.driver import KernelResult, VerifyOptions, verify
from hoaregpu.errors import SpecError, UnsupportedError
from hoaregpu.floats import literal, round32
from hoaregpu.interp import run_kernel
from hoaregpu.interp.evaluate import EvalError
from hoaregpu.interp.floats import BINARY, identical, unary
from hoaregpu.prepared import VcResult
from hoaregpu.solvers import Outcome, SolverOptions
from hoaregpu.term_walk import subterms
from hoaregpu.terms import Binary, BinOp, IntLit, Unary, UnOp


def own(k: KernelResult) -> list[VcResult]:
    """The kernel's own VCs, without its race checks."""
    return [r for r in k.results if r.vc.origin.kind.value != "data-race"]


def run(tmp_path: Path, src: str, solver: str = "z3") -> KernelResult:
    path = tmp_path / "k.cu"
    path.write_text(source(src))
    result = verify([str(path)], VerifyOptions(solver=solver, solver_options=SolverOptions(timeout=20.0)))
    assert not result.errors, [e.render() for e in result.errors]
    (kernel,) = result.kernels
    return kernel


def outcomes(k: KernelResult) -> list[tuple[int, Outcome]]:
    return [(r.vc.origin.span.line, r.result.outcome) for r in k.results]


def assigned(kernel: core.Kernel) -> list[core.Assign]:
    out: list[core.Assign] = []

    def go(s: core.Stmt) -> None:
        if isinstance(s, core.Assign):
            out.append(s)
        elif isinstance(s, core.Seq):
            for x in s.stmts:
                go(x)
        elif isinstance(s, core.If):
            go(s.then)
            go(s.orelse)
        elif isinstance(s, core.While):
            go(s.body)

    go(kernel.body)
    return out


# -- the front end -------------------------------------------------------------------------------


def test_float_expressions_become_opaque_operators() -> None:
    k = lower(
        """
        __global__ void k(float *a, double *d, int *n) {
            float x = a[threadIdx.x];
            float y = x * 2.0f + 1;
            bool p = x < y;
            bool q = x > y;
            int i = (int)y;
            d[0] = x;
            a[0] = d[1];
            n[0] = 2.5;
            x += 1;
        }
        """
    )
    by_target = {a.target: a.value for a in assigned(k)}
    assert by_target["y"] == Unary(
        UnOp.F32,
        Binary(BinOp.FADD, Unary(UnOp.F32, Binary(BinOp.FMUL, k_var("x"), literal(2.0))), literal(1.0)),
    )
    assert isinstance(by_target["p"], Binary) and by_target["p"].op is BinOp.NE  # bool: e != 0
    assert by_target["p"].left == Binary(BinOp.FLT, k_var("x"), k_var("y"))
    assert by_target["q"].left == Binary(BinOp.FLT, k_var("y"), k_var("x"))  # type: ignore[union-attr]
    assert by_target["i"] == Unary(UnOp.F2I, k_var("y"))
    assert by_target["d"] == k_var("x")  # float -> double is exact
    assert by_target["a"] == Unary(UnOp.F32, k_var("d", IntLit(1)))
    assert by_target["n"] == IntLit(2)  # folded: truncates
    assert k.decl("x").floating and k.decl("a").floating and not k.decl("i").floating


def k_var(name: str, *indices: object) -> object:
    from hoaregpu.terms import Var

    return Var(name, tuple(indices))  # type: ignore[arg-type]


def test_equal_constants_are_one_literal() -> None:
    k = lower(
        """
        __global__ void k(float *a) {
            a[0] = 0;
            a[1] = 0.0f;
            a[2] = (float)0.0;
        }
        """
    )
    values = {a.value for a in assigned(k)}
    assert values == {literal(0.0)}


@pytest.mark.parametrize(
    ("clause", "words"),
    [
        ("c[0] == a[0] + b[0]", "operator '+'"),
        ("c[0] < a[0]", "operator '<'"),
        ("c[0] == 1", "comparison with an integer"),
        ("c[0]", "use as a formula"),
        ("a[0] == 0.5 ? 1 : 0", ""),
    ],
)
def test_annotations_compare_floats_only_for_identity(clause: str, words: str) -> None:
    src = f"/*@ ensures {clause}; */\n__global__ void k(float *a, float *b, float *c) {{ c[0] = a[0]; }}\n"
    if not words:
        lower(src)
        return
    with pytest.raises(SpecError, match=re.escape(words)) as e:
        lower(src)
    assert e.value.span.line == 1


def test_long_double_stays_unsupported() -> None:
    with pytest.raises(UnsupportedError, match="long double"):
        lower("__global__ void k() { long double x; }")


# -- the interpreter -------------------------------------------------------------------------------


def test_interpreter_computes_ieee_float_and_double() -> None:
    assert unary(UnOp.F32, 0.1, None) == round32(0.1) != 0.1
    assert unary(UnOp.F32, 1e39, None) == math.inf  # beyond FLT_MAX
    assert BINARY[BinOp.FDIV](1, 0) == math.inf and BINARY[BinOp.FDIV](-1.0, 0) == -math.inf
    assert math.isnan(BINARY[BinOp.FDIV](0, 0))
    assert BINARY[BinOp.FEQ](math.nan, math.nan) == 0 and BINARY[BinOp.FNE](math.nan, math.nan) == 1
    assert BINARY[BinOp.FEQ](0.0, -0.0) == 1
    assert identical(math.nan, math.nan) and not identical(0.0, -0.0) and identical(3, 3.0)
    assert unary(UnOp.F2I, -2.7, None) == -2
    with pytest.raises(EvalError, match="undefined"):
        unary(UnOp.F2I, math.nan, None)


def test_float_kernel_runs_in_single_precision() -> None:
    k = lower(
        """
        __global__ void k(float *a, double *d) {
            float x = 0.1f;
            a[threadIdx.x] = x * 3;
            d[threadIdx.x] = 0.1 * 3;
        }
        """
    )
    result = run_kernel(k, 1, {})
    a, d = result.final.shared["a"].cells[(0,)], result.final.shared["d"].cells[(0,)]
    assert a == round32(round32(0.1) * 3.0) and d == 0.1 * 3 and a != d


# -- verification ---------------------------------------------------------------------------------

COPY = """
    /*@ requires blockDim.x == 4;
        ensures \\forall int j; 0 <= j < 4 ==> out[j] == \\old(in[3 - j]);
        ensures \\forall int j; 0 <= j < 4 ==> z[j] == 0.0f && z[j] != 1.5;
    */
    __global__ void rev(float *in, float *out, double *z) {
        __shared__ float tile[4];
        tile[threadIdx.x] = in[threadIdx.x];
        __syncthreads();
        out[threadIdx.x] = tile[3 - threadIdx.x];
        z[threadIdx.x] = 0;
    }
"""


@pytest.mark.parametrize("solver", ["z3", "cvc5"])
def test_float_copies_verify(tmp_path: Path, solver: str) -> None:
    k = run(tmp_path, COPY, solver)
    assert k.verdict == "verified", outcomes(k)
    assert all(not r.vc.approximations for r in k.results)


def test_planted_copy_bug_is_refuted_exactly(tmp_path: Path) -> None:
    k = run(tmp_path, COPY.replace("tile[3 - threadIdx.x]", "tile[threadIdx.x]"))
    assert (2, Outcome.REFUTED) in outcomes(k) and (3, Outcome.PROVED) in outcomes(k)
    assert k.verdict == "failed"


NAN = """
    /*@ ensures \\forall int j; 0 <= j < blockDim.x ==> r[j] == 1; */
    __global__ void nan(float *a, int *r) {
        float x = a[threadIdx.x];
        r[threadIdx.x] = x == x;
    }
"""


def test_x_equals_x_is_never_verified(tmp_path: Path) -> None:
    k = run(tmp_path, NAN)
    assert k.verdict != "verified"
    (r,) = own(k)
    assert r.result.outcome in (Outcome.UNKNOWN, Outcome.REFUTED)
    assert r.vc.approximations == ("floating-point operations",)
    path = tmp_path / "k.cu"
    assert main(["run", str(path), "--threads", "1", "--input", '{"a": [NaN]}']) == 1  # C: NaN != NaN


def test_refutation_through_float_arithmetic_needs_execution(tmp_path: Path) -> None:
    wrong = """
        /*@ ensures \\forall int j; 0 <= j < blockDim.x ==> c[j] == d[j]; */
        __global__ void k(float *a, float *b, float *c, float *d) {
            c[threadIdx.x] = a[threadIdx.x] + b[threadIdx.x];
            d[threadIdx.x] = a[threadIdx.x] - b[threadIdx.x];
        }
    """
    k = run(tmp_path, wrong)
    assert k.verdict == "failed"
    (r,) = own(k)
    assert r.replay is not None and r.replay.confirmed
    same = run(tmp_path, wrong.replace("] - b[", "] + b["))
    assert same.verdict == "verified"


def test_prove_rejects_floats(tmp_path: Path) -> None:
    path = tmp_path / "k.cu"
    path.write_text(source(NAN))
    assert main(["prove", str(path), "-o", str(tmp_path / "k.proof")]) == 3


def test_every_float_operator_is_uninterpreted_in_the_encoding() -> None:
    k = lower(
        """
        __global__ void k(float *a, int *n) {
            float x = -a[0] / a[1] - a[2];
            n[0] = x <= a[3];
            n[1] = (int)x;
            a[4] = n[2];
        }
        """
    )
    ops = {t.op for a in assigned(k) for t in subterms(a.value) if isinstance(t, Binary | Unary)}
    assert {BinOp.FDIV, BinOp.FSUB, BinOp.FLE, UnOp.FNEG, UnOp.F2I, UnOp.I2F, UnOp.F32} <= ops


def test_an_access_fact_about_a_float_array_is_no_float_value(tmp_path: Path) -> None:
    # `\written(a, c)` names a cell of `a`, it reads no float: it was an input error
    src = """
    /*@ requires gridDim.x == 1; requires blockDim.x == 4; */
    __global__ void k(float *a, int n) {
        /*@ loop invariant i % 4 == threadIdx.x;
            loop invariant \\forall int c; \\written(a, c) ==> c % 4 == threadIdx.x;
        */
        for (int i = threadIdx.x; i < n; i += 4) {
            a[i] = 1.0f;
        }
    }
    """
    assert run(tmp_path, src).verdict == "verified"
    bug = src.replace("c % 4 == threadIdx.x;", "c % 4 == 0;")
    assert run(tmp_path, bug).verdict == "failed"
