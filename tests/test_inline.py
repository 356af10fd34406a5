"""Device functions inlined at each call (`hoaregpu/frontend/inline.py`)."""

from __future__ import annotations

import pytest
from pipeline_kit import PROVED, REFUTED, lower, source, verdicts

from hoaregpu.errors import SpecError, UnsupportedError
from hoaregpu.frontend import parse_text
from hoaregpu.pretty import show_stmt
from hoaregpu.solvers import Outcome

HELPERS = """
    __device__ int twice(int x) {
        int y = x + x;
        return y;
    }
    __device__ void put(int *p, int i, int v) {
        p[i] = v;
    }
    __device__ int sum3(int *a, int i) {
        int s = 0;
        /*@ loop invariant 0 <= k && k <= 3;
            loop invariant s == k * a[i]; */
        for (int k = 0; k < 3; k++) { s += a[i]; }
        return s;
    }
    """


def outcomes(body: str, contract: str) -> list[tuple[str, Outcome]]:
    src = HELPERS + f"/*@ {contract} */\n__global__ void k(int *out, int *a) {{\n{body}\n}}\n"
    return [(v.kind, v.outcome) for v in verdicts(src)]


def test_values_arrays_and_annotations_of_device_functions() -> None:
    contract = "requires blockDim.x == 4; ensures \\forall int j; 0 <= j < 4 ==> out[j] == 6 * a[j] + 2 * j;"
    body = (
        "int x = sum3(a, threadIdx.x) + sum3(a, threadIdx.x);\nput(out, threadIdx.x, x + twice(threadIdx.x));"
    )
    got = outcomes(body, contract)
    # the loop invariants of sum3 are proved at each of its two calls, then the postcondition
    assert got.count(("loop-invariant-entry", PROVED)) == 4
    assert got.count(("loop-invariant-preserved", PROVED)) == 4
    assert ("postcondition", PROVED) in got and all(o is PROVED for _, o in got)
    wrong = outcomes(body, contract.replace("2 * j", "3 * j"))
    assert ("postcondition", REFUTED) in wrong


def test_arguments_are_read_in_the_callers_scope() -> None:
    # f(b, a) for f(int a, int b): a naive `int a = b; int b = a;` would read the new a
    src = """
        __device__ int minus(int a, int b) { return a - b; }
        /*@ ensures out[0] == 2; */
        __global__ void k(int *out) {
            int a = 5;
            int b = 7;
            out[0] = minus(b, a);
        }
        """
    assert [v.outcome for v in verdicts(src)] == [PROVED]


def test_locals_of_the_function_do_not_capture_the_callers_array() -> None:
    src = """
        __device__ void set(int *p) { int a = 3; p[0] = a; }
        /*@ ensures a[0] == 3; */
        __global__ void k(int *a) { set(a); }
        """
    assert [v.outcome for v in verdicts(src)] == [PROVED]


def test_a_barrier_in_a_device_function_is_checked_at_the_call() -> None:
    src = """
        __device__ void wait() { __syncthreads(); }
        __global__ void k(int *a) {
            if (threadIdx.x == 0) wait();
        }
        """
    assert [(v.kind, v.line, v.outcome) for v in verdicts(src)] == [("barrier-divergence", 1, REFUTED)]


def test_each_call_is_a_fresh_copy() -> None:
    k = lower(HELPERS + "__global__ void k(int *out) { out[0] = twice(1) + twice(2); }\n")
    text = "\n".join(show_stmt(k.body))
    # the second copy's parameter and local are new variables (lowering renames x, y to x.1, y.1)
    assert "twice.result.1 := y;" in text and "twice.result.3 := y.1;" in text
    assert "out[0] := twice.result.1 + twice.result.3" in text


def prog(device: str, body: str) -> str:
    return f"{device}\n__global__ void k(int *o, int n) {{ {body} }}\n"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (prog("__device__ int f(int x) { return f(x); }", "o[0] = f(1);"), "recursive"),
        (
            prog(
                "/*@ ensures \\result >= 0; */\n__device__ int f(int x) { if (x) return 1; return 0; }",
                "f(1);",
            ),
            "'return' before the end of a device function verified through its contract",
        ),
        (prog("__device__ int f(int x) { return x; }", "o[0] = n > 0 && f(1);"), "under '&&'"),
        (prog("__device__ int f(int x) { return x; }", "while (f(n) < 3) n++;"), "call in a loop condition"),
        (prog("__device__ void f(int *p) { p[0] = 1; }", "f(0);"), "null pointers"),
        (prog("__device__ int *f(int *p) { return p; }", "f(o)[0] = 1;"), "the pointer 'f' returns"),
        (prog("__device__ void f(int x) { }", "o[0] = f(1);"), ""),  # Clang: void value
        # a body-less function is any function (calls.py), but one that may write memory
        # cannot stand in a loop condition
        (prog("__device__ int g(int *p);", "while (g(o) < 3) n++;"), "call in a loop condition"),
    ],
)
def test_what_is_not_inlined_is_an_error_at_the_call(text: str, words: str) -> None:
    with pytest.raises(SpecError) as info:
        from hoaregpu.lower import lower_file

        lower_file(parse_text(source(text), "k.cu"))
    assert words in info.value.message
    assert info.value.span.line in (1, 2)
    if words not in ("recursive", ""):
        assert isinstance(info.value, UnsupportedError)


EARLY = """
    __device__ int clamp(int i, int n) {
        if (i < 0) return 0;
        if (i == 0) return 10;
        if (i == 1) { i = 11; return i; }
        if (i >= n) return n - 1;
        return i;
    }
    __device__ void mark(int *p) {
        if (threadIdx.x == 0) return;
        p[threadIdx.x] = 1;
        BARRIER
    }
    """


def test_a_return_before_the_end_ends_the_inlined_body_only() -> None:
    contract = "requires blockDim.x == 6; ensures out[tid] == (tid < 2 ? 10 + tid : (tid >= 4 ? 3 : tid));"
    body = "int v = clamp(threadIdx.x, 4);\n__syncthreads();\nout[threadIdx.x] = v;"
    src = EARLY.replace("BARRIER", "") + f"/*@ {contract} */\n__global__ void k(int *out) {{\n{body}\n}}\n"
    assert [v.outcome for v in verdicts(src)] == [PROVED]  # the barrier after the call: every thread
    wrong = src.replace("return n - 1;", "return n - 2;")
    assert [v.outcome for v in verdicts(wrong)] == [REFUTED]


def test_a_barrier_after_a_return_in_a_device_function_is_divergence() -> None:
    body = "mark(out);"
    src = (
        EARLY.replace("BARRIER", "__syncthreads();")
        + f"/*@ requires blockDim.x == 4; */\n__global__ void k(int *out) {{\n{body}\n}}\n"
    )
    assert [(v.kind, v.outcome) for v in verdicts(src)] == [("barrier-divergence", REFUTED)]
