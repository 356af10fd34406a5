"""Structs flattened per field, typedefs, vector types, file-scope variables, memset/memcpy
(`hoaregpu/frontend/aggregates.py`, `filescope.py`, `memory.py`)."""

from __future__ import annotations

import json
import struct
from pathlib import Path

import pytest
from pipeline_kit import PROVED, REFUTED, lower, source, verdicts

from hoaregpu import core
from hoaregpu.driver import VerifyOptions, verify
from hoaregpu.errors import SpecError, UnsupportedError
from hoaregpu.frontend import parse_text
from hoaregpu.interp import run_kernel
from hoaregpu.interp.values import Array
from hoaregpu.lower import lower_file
from hoaregpu.pretty import show_stmt
from hoaregpu.report import render_json, render_text

PAIR = "struct P { int x; int y; };\nstruct Q { P p; int v[3]; unsigned k; };\n"


def decls(src: str) -> dict[str, tuple[core.VarKind, int]]:
    return {d.name: (d.kind, d.dim) for d in lower(PAIR + src).decls}


def body(src: str) -> str:
    return "\n".join(show_stmt(lower(PAIR + src).body))


def error(src: str) -> SpecError:
    with pytest.raises(SpecError) as e:
        parse_text(source(PAIR + src), "k.cu")
    return e.value


def final(src: str, inputs: dict[str, object], threads: int = 2) -> dict[str, Array]:
    k = lower(PAIR + src)
    r = run_kernel(k, threads, inputs)
    assert r.final is not None, r.violations
    names = {d.name: d for d in k.decls}
    return {n: r.final.shared[n] for n in names if names[n].kind is core.VarKind.SHARED and names[n].dim}


def test_every_struct_variable_is_one_variable_per_field() -> None:
    got = decls(
        "__global__ void k(Q *a, P s) { P t; Q u[2]; __shared__ P sh[4]; t.x = s.y; u[1].v[2] = a[0].p.x; }"
    )
    SH, LO = core.VarKind.SHARED, core.VarKind.LOCAL
    assert got["a.p.x"] == (SH, 1) and got["a.v"] == (SH, 2) and got["a.k"] == (SH, 1)
    assert got["s.x"] == (SH, 0) and got["s.y"] == (SH, 0)  # by value, never assigned: uniform
    assert got["t.x"] == (LO, 0) and got["u.v"] == (LO, 2) and got["u.p.y"] == (LO, 1)
    assert got["sh.x"] == (SH, 1) and got["sh.y"] == (SH, 1)
    assert "a" not in got and "t" not in got


def test_field_access_indexes_the_flattened_variable() -> None:
    text = body("__global__ void k(Q *a, P *p, int i) { a[i].v[2] = p->y; a[1].p.x = a[i].v[i]; }")
    assert "a.v[i][2] := p.y[0]" in text
    assert "a.p.x[1] := a.v[i][i]" in text


def test_a_by_value_struct_parameter_written_by_the_kernel_is_per_thread() -> None:
    got = decls("__global__ void k(P s, int *o) { s.x = threadIdx.x; o[threadIdx.x] = s.x + s.y; }")
    assert got["s.x"] == (core.VarKind.LOCAL, 0) and got["s.y"] == (core.VarKind.SHARED, 0)


def test_struct_assignment_copies_every_cell() -> None:
    text = body("__global__ void k(Q *a) { Q t = a[threadIdx.x]; a[0] = t; }")
    for field in ("p.x", "p.y", "k"):
        assert f"t.{field} := a.{field}[tid]" in text and f"a.{field}[0] := t.{field}" in text
    for j in range(3):
        assert f"t.v[{j}] := a.v[tid][{j}]" in text


def test_initialisers_fill_fields_in_order_and_zero_the_rest() -> None:
    src = "__global__ void k(Q *o) { Q q = {{1, 2}, {7}}; o[threadIdx.x] = q; }"
    out = final(src, {}, threads=1)
    assert out["o.p.x"].get((0,)) == 1 and out["o.p.y"].get((0,)) == 2
    assert [out["o.v"].get((0, j)) for j in range(3)] == [7, 0, 0] and out["o.k"].get((0,)) == 0


def test_a_copy_within_one_array_reads_the_source_first() -> None:
    # a[1] = a[a[1].x]: the index is computed once, before any field is written
    src = "__global__ void k(P *a) { if (threadIdx.x == 0) { a[1] = a[a[1].x]; } }"
    out = final(src, {"a.x": [5, 0], "a.y": [6, 9]}, threads=1)
    assert out["a.x"].get((1,)) == 5 and out["a.y"].get((1,)) == 6


def test_a_field_mixed_up_is_refuted() -> None:
    contract = (
        "/*@ requires blockDim.x == 2;\n ensures \\forall int j; 0 <= j < 2 ==> a[j].y == \\old(a[j].x); */\n"
    )
    good = contract + "__global__ void k(P *a) { P t = a[threadIdx.x]; a[threadIdx.x].y = t.x; }"
    bad = contract + "__global__ void k(P *a) { P t = a[threadIdx.x]; a[threadIdx.x].y = t.y; }"
    assert [v.outcome for v in verdicts(PAIR + good)] == [PROVED]
    assert [v.outcome for v in verdicts(PAIR + bad)] == [REFUTED]


def test_annotations_name_fields_with_dots_arrows_and_indices() -> None:
    src = (
        "/*@ requires blockDim.x == 1;\n"
        "    ensures p->x == 4 && q[0].v[2] == 5 && q[0].p.y == \\old(q[0].p.x); */\n"
        "__global__ void k(P *p, Q *q) { p->x = 4; q->v[2] = 5; q[0].p.y = q[0].p.x; }"
    )
    assert [v.outcome for v in verdicts(PAIR + src)] == [PROVED]


def test_typedefs_using_and_vector_types() -> None:
    src = (
        "typedef P pt; using Pu = pt; typedef unsigned int word;\n"
        "/*@ requires blockDim.x == 1; ensures o[0].w == 3 && o[0].x == 0; */\n"
        "__global__ void k(Pu *a, uint4 *o) {\n"
        "    word w = 3; uint4 v = {0, 1, 2}; v.w = w; o[0] = v; a[0].x = 1; }"
    )
    assert [v.outcome for v in verdicts(PAIR + src)] == [PROVED, PROVED]


def test_device_functions_take_and_return_structs() -> None:
    src = (
        "__device__ P swap(P s) { P r = {s.y, s.x}; return r; }\n"
        "__device__ void put(P *d, int i, P v) { d[i] = v; }\n"
        "/*@ requires blockDim.x == 2; ensures \\forall int j; 0 <= j < 2 ==> a[j].x == \\old(a[j].y); */\n"
        "__global__ void k(P *a) { P t = swap(a[threadIdx.x]); put(a, threadIdx.x, t); }"
    )
    assert [v.outcome for v in verdicts(PAIR + src)] == [PROVED]


def test_a_field_named_like_an_encoding_suffix_does_not_meet_another_variable() -> None:
    # `x.old` would be the SMT name of x's initial value; the struct's field is renamed
    src = "struct O { int old; };\n"
    src += "__global__ void k(int *a, int x) { if (x > 0) { O x; x.old = 1; a[0] = x.old; } }"
    names = [d.name for d in lower(PAIR + src).decls]
    assert "x" in names and "x.old" not in names and "x.old.1" in names


def test_constant_tables_are_known_on_entry() -> None:
    src = (
        "__constant__ int T[3] = {4, 5};\n"
        "/*@ requires blockDim.x == 1; ensures o[0] == 9 && T[2] == 0; */\n"
        "__global__ void k(int *o) { o[0] = T[0] + T[1] + T[2]; }"
    )
    assert [v.outcome for v in verdicts(PAIR + src)] == [PROVED]
    device = src.replace("__constant__", "__device__")  # earlier launches may have changed it
    assert [v.outcome for v in verdicts(PAIR + device)] == [REFUTED]


def test_device_globals_are_shared_global_memory() -> None:
    src = (
        "__device__ int g; __device__ P pts[2];\n"
        "/*@ requires blockDim.x == 2; ensures g == 1 && pts[1].y == 7; */\n"
        "__global__ void k() { g = 1; if (threadIdx.x == 1) { pts[1].y = 7; } }"
    )
    got = decls(src)
    assert got["g"] == (core.VarKind.SHARED, 0) and got["pts.y"] == (core.VarKind.SHARED, 1)
    assert [v.outcome for v in verdicts(PAIR + src)] == [PROVED]


def test_memset_and_memcpy_with_constant_lengths() -> None:
    src = (
        "__global__ void k(int *a, P *ps, unsigned char *b) { if (threadIdx.x == 0) {\n"
        "  int buf[3]; memset(buf, 0xFF, sizeof(buf)); a[0] = buf[2];\n"
        "  memset(b, 0xAB, 2); memcpy(&ps[2], &ps[0], 2 * sizeof(P)); memset(&a[1], 0, 2 * sizeof(int)); } }"
    )
    out = final(src, {"a": [9, 9, 9, 9], "ps.x": [1, 2, 3, 4], "ps.y": [5, 6, 7, 8], "b": [0, 0, 0]}, 1)
    assert [out["a"].get((i,)) for i in range(4)] == [-1, 0, 0, 9]
    assert [out["b"].get((i,)) for i in range(3)] == [0xAB, 0xAB, 0]
    assert [out["ps.x"].get((i,)) for i in range(4)] == [1, 2, 1, 2]
    assert [out["ps.y"].get((i,)) for i in range(4)] == [5, 6, 5, 6]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("union U { int a; }; __global__ void k(U *u) { }", "union type 'U'"),
        ("struct B { int b : 3; }; __global__ void k(B *u) { }", "bit-field 'b'"),
        (
            "struct M { int m; __device__ int get() { return m; } };\n__global__ void k(M *u) { }",
            "member functions",
        ),
        ("struct D : virtual P { }; __global__ void k(D *u) { }", "virtual base class"),
        ("struct D : P { int x; }; __global__ void k(D *u) { }", "field 'x' of 'D' declared twice"),
        ("struct R { int y; }; struct D : P, R { }; __global__ void k(D *u) { }", "field 'y' of 'D'"),
        ("struct D : P { int z; __device__ int f() { return z; } }; __global__ void k(D *u) { }", "member"),
        ("struct S { int *p; }; __global__ void k(S *u) { }", "field 'p' of type 'int *'"),
        ("__global__ void k(Q q) { }", "by value with an array field"),
        ("__global__ void k(P *a) { P t = threadIdx.x ? a[0] : a[1]; }", "struct-valued expression"),
        ("__global__ void k(P *a, int n) { memset(a, 0, n * sizeof(P)); }", "length that is not a constant"),
        ("__global__ void k(int *a) { memset(a, 0, 6); }", "not a whole number of 'int'"),
        ("__global__ void k(int *a, P *p) { memcpy(a, p, 8); }", "memcpy from 'P' to 'int'"),
        (
            "__device__ int g; __device__ int f() { return g; }\n"
            "__global__ void k(int *a) { int g = 2; a[0] = f(); }",
            "named like the file-scope variable",
        ),
        (
            "__constant__ int C[2]; __device__ void f(int *p) { }\n__global__ void k() { f(C); }",
            "to non-const",
        ),
        ("__device__ int *gp; __global__ void k() { gp[0] = 1; }", "file-scope pointer variable 'gp'"),
    ],
)
def test_what_is_not_supported_is_named(text: str, words: str) -> None:
    err = error(text)
    assert isinstance(err, UnsupportedError), err.render()
    assert words in err.message, err.message


@pytest.mark.parametrize(
    "text",
    [
        "__constant__ int C[2] = {1, 2}; __global__ void k() { C[threadIdx.x] = 0; }",
        "__constant__ P C; __global__ void k() { C.x = 0; }",
        "__constant__ int C[2]; __global__ void k() { memset(C, 0, sizeof(C)); }",
    ],
)
def test_writing_constant_memory_is_an_input_error(text: str) -> None:
    err = error(text)
    assert not isinstance(err, UnsupportedError) and "__constant__" in err.message


GRID = (
    "/*@ requires blockDim.x == 2;\n    requires gridDim.x == 2;\n"
    "    ensures \\forall int b; 0 <= b < 2 ==> out[b] == 42; */\n"
)
FLAG = (
    "__global__ void k(int *out) {\n"
    "    if (blockIdx.x == 0 && threadIdx.x == 0) { flag[0] = 42; }\n"
    "    __syncthreads();\n"
    "    if (threadIdx.x == 0) { out[blockIdx.x] = flag[0]; }\n}\n"
)


def test_file_scope_shared_memory_is_per_block_and_device_memory_is_not() -> None:
    # block 1 reads its own copy of a __shared__ flag, never written
    assert [v.outcome for v in verdicts("extern __shared__ int flag[];\n" + GRID + FLAG)][-1] is REFUTED
    # a __device__ array is one for the whole grid: a parameter, not per-block memory
    shared = {d.name: d.role for d in lower("extern __shared__ int flag[];\n" + GRID + FLAG).decls}
    device = {d.name: d.role for d in lower("__device__ int flag[1];\n" + GRID + FLAG).decls}
    assert shared["flag"] is core.VarRole.SHARED_ARRAY and device["flag"] is core.VarRole.ARRAY_PARAM


def test_device_function_contracts_take_and_return_structs() -> None:
    src = (
        "__constant__ int T[2] = {1, 2};\n"
        "/*@ requires s.x >= 0;\n    ensures \\result.x == s.y + T[1] && \\result.y == s.x; */\n"
        "__device__ P swap2(P s) { P r = {s.y + T[1], s.x}; return r; }\n"
        "/*@ requires blockDim.x == 2;\n    requires \\forall int j; 0 <= j < 2 ==> a[j].x >= 0;\n"
        "    ensures \\forall int j; 0 <= j < 2 ==> a[j].y == \\old(a[j].x); */\n"
        "__global__ void k(P *a) { P t = swap2(a[threadIdx.x]); a[threadIdx.x] = t; }\n"
    )
    kernels = lower_file(parse_text(source(PAIR + src), "k.cu"))
    assert [k.name for k in kernels] == ["swap2", "k"]
    assert {"swap2.result.x", "swap2.result.y", "T"} <= {d.name for d in kernels[0].decls}


INHERIT = "struct B { int x; };\nstruct D : B { int y; };\nstruct E : D { int z[2]; };\n"


def test_a_derived_struct_holds_its_bases_fields_first_under_their_own_names() -> None:
    got = decls(INHERIT + "__global__ void k(E *e, D d) { E t; t.x = d.x + e[0].z[1]; B b = d; e[1] = t; }")
    assert got["e.x"] == (core.VarKind.SHARED, 1) and got["e.y"][1] == 1 and got["e.z"][1] == 2
    assert got["d.x"] == (core.VarKind.SHARED, 0) and got["t.x"] == (core.VarKind.LOCAL, 0)
    assert got["b.x"] == (core.VarKind.LOCAL, 0) and "b.y" not in got  # slicing copies the base part
    text = body(INHERIT + "__global__ void k(E *e, D d) { B b = d; e[1].x = b.x; }")
    assert "b.x := d.x" in text and "e.x[1] := b.x" in text


def test_a_base_field_mixed_up_is_refuted() -> None:
    good = (
        INHERIT
        + """
        /*@ ensures e[tid].x == \\old(e[tid].y) + e[tid].z[0]; */
        __global__ void k(E *e) { e[threadIdx.x].x = e[threadIdx.x].y + e[threadIdx.x].z[0]; }
    """
    )
    bad = good.replace("= e[threadIdx.x].y +", "= e[threadIdx.x].x +")
    assert [v.outcome for v in verdicts(PAIR + good, 2)] == [PROVED]
    assert [v.outcome for v in verdicts(PAIR + bad, 2)] == [REFUTED]


def test_a_verdict_resting_on_a_constant_initialiser_says_so(tmp_path: Path) -> None:
    # the host may overwrite `__constant__` memory (cudaMemcpyToSymbol) before a launch
    src = (
        "__constant__ int T[2] = {4, 5};\n"
        "/*@ requires blockDim.x == 1; requires gridDim.x == 1; ensures o[0] == 9; */\n"
        "__global__ void k(int *o) { o[0] = T[0] + T[1]; }\n"
    )
    path = tmp_path / "k.cu"
    path.write_text(src)
    run = verify([str(path)], VerifyOptions(cache=False))
    (kernel,) = run.kernels
    assert kernel.verdict == "verified"
    text = render_text(run)
    note = f"{path}:1:18: note: the verdict of kernel k assumes that the initialiser of __constant__ 'T'"
    assert note in text
    assert "[assumption]" in text
    (entry,) = json.loads(render_json(run))["kernels"]
    assert entry["assumptions"] == [f"{path}:1:18"]
    plain = tmp_path / "plain.cu"  # no initialiser, nothing assumed
    plain.write_text(src.replace(" = {4, 5}", "").replace("ensures o[0] == 9;", "ensures true;"))
    other = verify([str(plain)], VerifyOptions(cache=False))
    assert "[assumption]" not in render_text(other)
    assert json.loads(render_json(other))["kernels"][0]["assumptions"] == []


FLOAT_FIELDS = """
    struct F { float x; int n; float w[2]; };
    /*@ requires blockDim.x == 2; requires gridDim.x == 1;
        ensures out[threadIdx.x].x == in[threadIdx.x].x && out[threadIdx.x].n == 7;
        ensures z[threadIdx.x].x == 0.0f && z[threadIdx.x].w[1] == 0.0f;
        ensures m[threadIdx.x] == 0.0f;
        ensures v[threadIdx.x].y == in[threadIdx.x].w[0];
    */
    __global__ void k(F *in, F *out, F *z, float *m, float4 *v) {
        F p = in[threadIdx.x];
        p.n = 7;
        out[threadIdx.x] = p;
        F q = {0.0f, 1};  // q.w is zero: 0.0f, not the integer 0
        z[threadIdx.x] = q;
        F r;
        memset(&r, 0, sizeof(F));
        m[threadIdx.x] = r.w[1];
        v[threadIdx.x].y = p.w[0];
    }
    """


def test_float_fields_are_opaque_values_copied_exactly() -> None:
    assert set(v.outcome for v in verdicts(PAIR + FLOAT_FIELDS)) == {PROVED}
    for right, wrong in (
        ("z[threadIdx.x].w[1] == 0.0f", "z[threadIdx.x].w[1] != 0.0f"),  # zero-filled: 0.0
        ("m[threadIdx.x] == 0.0f", "m[threadIdx.x] != 0.0f"),  # memset's zero bytes are 0.0
        ("out[threadIdx.x].x == in[threadIdx.x].x", "out[threadIdx.x].x == in[threadIdx.x].w[0]"),
    ):
        bug = FLOAT_FIELDS.replace(right, wrong, 1)
        assert REFUTED in [v.outcome for v in verdicts(PAIR + bug)], wrong


def test_memset_of_a_float_field_holds_the_float_its_bytes_spell() -> None:
    src = (
        "struct G { float f; };\n"
        "/*@ requires blockDim.x == 1; requires gridDim.x == 1; ensures o[0] != 0.0f; */\n"
        "__global__ void k(float *o) { G g; memset(&g, 1, sizeof(G)); o[0] = g.f; }\n"
    )
    out = final(src, {"o": [0.0]}, threads=1)
    assert out["o"].get((0,)) == struct.unpack("<f", bytes([1]) * 4)[0]
    assert [v.outcome for v in verdicts(PAIR + src)] == [PROVED]
