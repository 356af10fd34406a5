"""Device functions with contracts (spec-language §5): verified once, used at every call."""

from __future__ import annotations

import pytest
from pipeline_kit import PROVED, REFUTED, decide, line_of, source

from hoaregpu import core
from hoaregpu.driver import contract_calls, fresh_env
from hoaregpu.errors import SpecError
from hoaregpu.frontend import parse_text
from hoaregpu.interp import run_kernel
from hoaregpu.lower import lower_file
from hoaregpu.smt.expand import ExpandThreadQuantifiers
from hoaregpu.solvers import Outcome
from hoaregpu.transform import make_monotonic
from hoaregpu.vc.generate import generate

INC = """
/*@ requires x >= 0;
    ensures \\result == x + %s; */
__device__ int inc(int x) {
    int y = x;
    y = y + 1;
    return y;
}
"""


def kernels(src: str) -> dict[str, core.Kernel]:
    return {k.name: make_monotonic(k) for k in lower_file(parse_text(source(src), "k.cu"))}


def verdicts(src: str, name: str = "k") -> list[tuple[str, int, Outcome]]:
    """(kind, line, outcome) of each VC of kernel `name` of the file."""
    k = kernels(src)[name]
    with fresh_env() as env:
        vcs = generate(k, env)
        walker = ExpandThreadQuantifiers(env)
        found = decide([walker.walk(vc.formula) for vc in vcs])
    return [(vc.kind.value, vc.origin.span.line, o) for vc, o in zip(vcs, found, strict=True)]


def test_the_function_becomes_a_kernel_and_calls_use_the_contract() -> None:
    src = (
        INC % "1"
        + """
        /*@ requires blockDim.x == 2; requires a[0] >= 0 && a[1] >= 0;
            ensures a[0] == \\old(a[0]) + 1; */
        __global__ void k(int *a) { a[threadIdx.x] = inc(a[threadIdx.x]); }
        """
    )
    ks = kernels(src)
    assert set(ks) == {"inc", "k"}
    assert contract_calls(ks["k"].body) == {"inc"} and contract_calls(ks["inc"].body) == set()
    body = ks["k"].body
    assert isinstance(body, core.Seq)
    kinds = [type(s).__name__ for s in body.stmts]
    assert kinds.index("Assert") < kinds.index("Opaque") < kinds.index("Assume")
    # the interpreters run the body: a[t] + 1
    r = run_kernel(ks["k"], 2, {"a": [3, 4]})
    assert r.final is not None and r.final.shared["a"].get((0,)) == 4


def test_the_verifier_sees_only_the_contract() -> None:
    """The body computes x + 1; a contract that only says `\\result > x` is all the caller
    knows, so a claim about the exact value does not follow."""
    weak = INC.replace("\\result == x + %s", "\\result > x")
    src = (
        weak
        + """
        /*@ requires blockDim.x == 1; requires a[0] >= 0;
            ensures a[0] %s; */
        __global__ void k(int *a) { a[0] = inc(a[0]); }
        """
    )
    assert [o for _, _, o in verdicts(src % "> \\old(a[0])")] == [PROVED, PROVED]
    wrong = src % "== \\old(a[0]) + 1"
    assert verdicts(wrong)[-1] == ("postcondition", line_of(wrong, "ensures a[0]"), REFUTED)


def test_the_call_checks_the_precondition_at_the_active_threads() -> None:
    src = (
        INC % "1"
        + """
        /*@ requires blockDim.x == 4; */
        __global__ void k(int *a) {
            int v = (int)threadIdx.x - %s;
            if (v >= 0) { a[threadIdx.x] = inc(v); }
            a[threadIdx.x] = inc(v);
        }
        """
    )
    guarded = line_of(src % "1", "if (v >= 0)")
    lines = {line: o for kind, line, o in verdicts(src % "1") if kind == "call-precondition"}
    assert lines == {guarded: PROVED, guarded + 1: REFUTED}
    assert all(o is PROVED for _, _, o in verdicts(src % "0"))


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("a[0] = x; return x;", "writes memory ('a')"),
        ("__syncthreads(); return x;", "has a barrier"),
    ],
)
def test_a_contract_needs_a_function_that_only_computes(body: str, message: str) -> None:
    src = f"""
        /*@ ensures \\result == x; */
        __device__ int f(int *a, int x) {{ {body} }}
        __global__ void k(int *a) {{ a[threadIdx.x] = f(a, 1); }}
        """
    with pytest.raises(SpecError, match=message.replace("(", r"\(").replace(")", r"\)")):
        kernels(src)


@pytest.mark.parametrize(
    ("clause", "message"),
    [
        ("ensures \\result == \\old(x);", "old"),
        ("ensures \\result == x @ 0;", "'@'"),
        ("requires \\result > 0;", "requires"),
        ("loop invariant x > 0;", "loop invariant"),
    ],
)
def test_what_a_contract_cannot_say(clause: str, message: str) -> None:
    src = f"""
        /*@ {clause} */
        __device__ int f(int x) {{ return x; }}
        __global__ void k(int *a) {{ a[threadIdx.x] = f(1); }}
        """
    with pytest.raises(SpecError, match=message):
        kernels(src)


def test_result_outside_a_device_contract_is_an_error() -> None:
    with pytest.raises(SpecError, match="result") as info:
        kernels("/*@ ensures \\result == 0; */ __global__ void k(int *a) { a[0] = 0; }")
    assert (info.value.span.line, info.value.span.col) == (1, 13)


def test_recursion_through_a_contract_is_an_error() -> None:
    src = """
        /*@ ensures \\result >= 0; */
        __device__ int f(int x) { return x > 0 ? x : 0; }
        /*@ ensures \\result >= 0; */
        __device__ int g(int x) { int y = g(x); return y; }
        __global__ void k(int *a) { a[threadIdx.x] = f(1); }
        """
    with pytest.raises(SpecError, match="recursive"):
        kernels(src)
