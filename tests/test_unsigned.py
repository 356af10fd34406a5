"""C's unsigned arithmetic (`hoaregpu/unsigned.py`): where C reads an unsigned value as a
number (compares, divides, shifts it right, indexes with it, widens it, stores it into an
unsigned variable) it must not have wrapped, an `unsigned-wrap` check evaluated where the
expression is evaluated and guarded by the short-circuit conditions on the way to it;
+ - * agree with C modulo 2^w and need none."""

from __future__ import annotations

import pytest
from pipeline_kit import lower, verdicts

from hoaregpu import core
from hoaregpu.cli import main
from hoaregpu.term_walk import subterms
from hoaregpu.terms import Binary, BinOp, IntLit, Var
from hoaregpu.unsigned import split


def checks(s: core.Stmt) -> list[core.Assert]:
    if isinstance(s, core.Assert):
        return [s] if s.check is core.CheckKind.UNSIGNED_WRAP else []
    if isinstance(s, core.Seq):
        return [c for x in s.stmts for c in checks(x)]
    if isinstance(s, core.If):
        return checks(s.then) + checks(s.orelse)
    if isinstance(s, core.While):
        return checks(s.body)
    return []


def wraps(src: str) -> list[str]:
    """The outcome of each unsigned-wrap VC of the kernel."""
    return [v.outcome.value for v in verdicts(src) if v.kind == "unsigned-wrap"]


# the review's kernels: C gives another answer than mathematical integers, so each must fail
WRAPPING = {
    "signed compared with unsigned": "int k = -1; out[0] = k < blockDim.x ? 1 : 0;",
    "unsigned minus below zero": "unsigned u = 0; u = u - 1; out[0] = u > 5 ? 1 : 0;",
    "compound minus": "unsigned u = 0; u -= 1; out[0] = u > 5 ? 1 : 0;",
    "decrement": "unsigned u = 0; u--; out[0] = u > 5 ? 1 : 0;",
    "thread id minus one": "out[threadIdx.x] = threadIdx.x - 1 > 5 ? 1 : 0;",
    "negative constant": "unsigned u = -1; out[0] = u > 5 ? 1 : 0;",
    "negated unsigned": "out[0] = -1u > 5 ? 1 : 0;",
    "cast": "int k = -3; out[0] = (unsigned)k > 5 ? 1 : 0;",
    "division": "int k = -4; out[0] = k / blockDim.x;",
    "compound division": "int k = -4; k /= blockDim.x; out[0] = k;",
    "index": "int k = -1; out[k + blockDim.x - 3] = 1;",
    "widening": "int k = -1; long long w = k + blockDim.x - 2; out[0] = w < 0;",
}


@pytest.mark.parametrize("body", WRAPPING.values(), ids=WRAPPING.keys())
def test_wrapping_values_are_refuted(body: str) -> None:
    src = f"/*@ requires blockDim.x == 2; */\n__global__ void k(int *out) {{\n    {body}\n}}\n"
    assert "refuted" in wraps(src), src


def test_values_that_cannot_wrap_need_no_check() -> None:
    k = lower("""
        __global__ void k(int *out, unsigned n) {
            unsigned u = n + threadIdx.x;
            int i = threadIdx.x - 1;
            out[threadIdx.x] = (n + 1) / 2 + threadIdx.x;
            i -= blockDim.x;
            out[threadIdx.x] = i + u;
        }
        """)
    assert checks(k.body) == []  # ring operations stored as int, and values that cannot be < 0


def test_checks_are_proved_where_the_value_is_not_negative() -> None:
    src = """
        /*@ requires n >= 0; */
        __global__ void k(int *out, int n) {
            int k = threadIdx.x;
            /*@ loop invariant k >= threadIdx.x; */
            while (k < n) {
                out[k / blockDim.x] = 1;
                k = k + blockDim.x;
            }
        }
        """
    assert wraps(src) == ["proved"]


def test_short_circuit_and_conditional_guard_the_check() -> None:
    guarded = """
        __global__ void k(int *out, int j) {
            if (j >= 0 && j < blockDim.x) out[threadIdx.x] = 1;
            out[threadIdx.x] = j < 0 ? 0 : (j < blockDim.x ? 2 : 3);
        }
        """
    assert wraps(guarded) == ["proved", "proved"]
    assert wraps(guarded.replace("j >= 0 &&", "j >= -1 &&")) == ["refuted", "proved"]
    (kernel,) = [lower(guarded)]
    first = checks(kernel.body)[0].formula.term
    assert isinstance(first, Binary) and first.op is BinOp.IMPLIES  # `j >= 0 ==> j >= 0`


def test_a_loop_condition_is_checked_on_every_evaluation() -> None:
    # k = 3, 1, -1: the third evaluation of `k < blockDim.x` converts -1
    src = """
        /*@ requires blockDim.x == 8; */
        __global__ void k(int *out) {
            int k = 3;
            /*@ loop invariant k <= 3; */
            while (k < blockDim.x) { k = k - 2; }
            out[threadIdx.x] = k;
        }
        """
    k = lower(src)
    assert isinstance(k.body, core.Seq)
    (loop,) = [s for s in k.body.stmts if isinstance(s, core.While)]
    assert len(checks(k.body)) == 2 and len(checks(loop.body)) == 1  # before the loop, in its body
    assert wraps(src) == ["proved", "refuted"]  # on entry (k = 3), after an iteration


def test_continue_still_checks_the_condition() -> None:
    src = """
        /*@ requires blockDim.x == 8; */
        __global__ void k(int *out) {
            int k = 3;
            /*@ loop invariant k <= 3; */
            while (k < blockDim.x) {
                k = k - 2;
                if (k < 0) continue;
                out[threadIdx.x] = k;
            }
        }
        """
    assert wraps(src) == ["proved", "refuted"]


def test_split_keeps_the_term_and_orders_checks() -> None:
    from hoaregpu.terms import Unsigned

    term = Binary(BinOp.LT, Unsigned(Var("k")), Unsigned(Binary(BinOp.SUB, Var("u"), IntLit(1))))
    plain, found = split(term)
    assert plain == Binary(BinOp.LT, Var("k"), Binary(BinOp.SUB, Var("u"), IntLit(1)))
    assert [ob for ob, _, _ in found] == [
        Binary(BinOp.GE, Var("k"), IntLit(0)),
        Binary(BinOp.GE, Binary(BinOp.SUB, Var("u"), IntLit(1)), IntLit(0)),
    ]
    assert not any(isinstance(t, Unsigned) for t in subterms(plain))


def test_run_reports_the_wrap(tmp_path: object, capsys: pytest.CaptureFixture[str]) -> None:
    import pathlib

    assert isinstance(tmp_path, pathlib.Path)
    path = tmp_path / "k.cu"
    path.write_text("__global__ void k(int *out) {\n    out[threadIdx.x] = (threadIdx.x - 1) / 2;\n}\n")
    assert main(["run", str(path), "--threads", "2", "--input", '{"out": [0, 0]}']) == 1
    out = capsys.readouterr().out
    # thread 0 of each of the two blocks that `run` takes of a kernel reading no block index
    assert "unsigned-wrap" in out and "at threads 0,2" in out


def test_verify_names_the_kind(tmp_path: object, capsys: pytest.CaptureFixture[str]) -> None:
    import pathlib

    assert isinstance(tmp_path, pathlib.Path)
    path = tmp_path / "k.cu"
    path.write_text("__global__ void k(int *out) {\n    out[threadIdx.x] = (threadIdx.x - 1) / 2;\n}\n")
    assert main(["verify", str(path), "--no-cache"]) == 1
    out = capsys.readouterr().out
    assert f"{path}:2:24: error: value might be negative where C computes it as unsigned" in out
    assert "[unsigned-wrap]" in out and "1 refuted" in out


NARROWING = {
    "char overflow": ("char c = 127; c = c + 1; out[0] = c;", "refuted"),
    "unsigned char below zero": ("unsigned char c = 0; c--; out[0] = c;", "refuted"),
    "short in range": ("short s = 1000; s = s * 3; out[0] = s;", "proved"),
    "char from a parameter": ("char c = n; out[0] = c;", "refuted"),
}


@pytest.mark.parametrize(("body", "outcome"), NARROWING.values(), ids=NARROWING.keys())
def test_stores_into_narrow_types_must_fit(body: str, outcome: str) -> None:
    src = f"/*@ requires blockDim.x == 1; */\n__global__ void k(int *out, int n) {{\n    {body}\n}}\n"
    got = [v.outcome.value for v in verdicts(src) if v.kind == "narrowing"]
    assert got and got[-1] == outcome and all(o == "proved" for o in got[:-1]), (src, got)


def test_a_constant_that_fits_needs_no_narrowing_check() -> None:
    k = lower("__global__ void k(int *out) {\n    short s = 3;\n    char c = 'a';\n    out[0] = s + c;\n}\n")
    assert [s for s in checks(k.body)] == []
    assert not any(isinstance(s, core.Assert) for s in (k.body.stmts if isinstance(k.body, core.Seq) else ()))


# found by the second review: names inside an inlined device function are its own, never
# the kernel's unsigned parameters (which the non-negativity shortcut trusts), and explicit
# casts to narrow types truncate in C
REVIEW = {
    "device parameter named like a kernel parameter": (
        "__device__ int half(int n) { return (unsigned)n / 2; }\n"
        "/*@ ensures r == -1; */\n__global__ void k(int *out, unsigned n) {\n"
        "    int r = half(-2);\n    out[threadIdx.x] = r;\n}\n"
    ),
    "device local named like a kernel parameter": (
        "__device__ int half(void) { int n = -2; return (unsigned)n / 2; }\n"
        "/*@ ensures r == -1; */\n__global__ void k(int *out, unsigned n) {\n"
        "    int r = half();\n    out[threadIdx.x] = r;\n}\n"
    ),
    "device array named like a kernel array": (
        "__device__ int g(int *u) { return (unsigned)u[0] / 2; }\n"
        "/*@ requires x[0] == -2; ensures r == -1; */\n__global__ void k(unsigned *u, int *x) {\n"
        "    int r = g(x);\n    x[1] = r;\n}\n"
    ),
    "cast to unsigned char": (
        "/*@ requires n == -1; ensures out[threadIdx.x] == 1; */\n__global__ void k(int *out, int n) {\n"
        "    if ((unsigned char)n < 0) out[threadIdx.x] = 1; else out[threadIdx.x] = 0;\n}\n"
    ),
}


@pytest.mark.parametrize("src", REVIEW.values(), ids=REVIEW.keys())
def test_review_kernels_are_refuted(src: str) -> None:
    got = [(v.kind, v.outcome.value) for v in verdicts(src)]
    assert any(o == "refuted" and k in ("unsigned-wrap", "narrowing") for k, o in got), got
