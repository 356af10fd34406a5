"""Pointer variables into arrays (`hoaregpu/frontend/pointers.py`, `pointer_decls.py`, `pointer_stmts.py`,
`pointer_analysis.py`): offsets and selectors, aliasing, device functions, annotations,
and the constructs that stay errors."""

from __future__ import annotations

import pytest
from pipeline_kit import PROVED, REFUTED, lower, outcomes

from hoaregpu import core
from hoaregpu.errors import SpecError, UnsupportedError
from hoaregpu.frontend import parse_text
from hoaregpu.interp import run_kernel
from hoaregpu.pretty import show_stmt


def kernel_src(body: str, ensures: str, params: str = "int *a, int *b, int *o") -> str:
    contract = f"/*@ requires blockDim.x == 4;\n    ensures {ensures}; */\n"
    return contract + f"__global__ void k({params}) {{\n{body}\n}}\n"


def verdict(body: str, ensures: str, params: str = "int *a, int *b, int *o") -> set[object]:
    return set(outcomes(kernel_src(body, ensures, params)))


def run(body: str, inputs: dict[str, object], params: str = "int *a, int *b, int *o") -> dict[str, object]:
    k = lower(kernel_src(body, "true", params))
    r = run_kernel(k, 4, inputs)
    assert r.final is not None, r.violations
    return dict(r.final.shared)


def test_offset_pointer_is_the_array_at_an_offset() -> None:
    body = "int *p = a + 2;\np[threadIdx.x] = threadIdx.x;"
    assert verdict(body, "\\forall int j; 0 <= j < 4 ==> a[j + 2] == j") == {PROVED}
    assert verdict(body, "\\forall int j; 0 <= j < 4 ==> a[j + 1] == j") >= {REFUTED}
    # the interpreter runs the same translation: cells 2..5 are written
    cells = run(body, {"a": [9] * 8, "b": [], "o": []})["a"]
    assert [cells.get((i,)) for i in range(8)] == [9, 9, 0, 1, 2, 3, 9, 9]


def test_steps_dereference_and_address_of() -> None:
    body = "int *p = &a[1];\np++;\np += 1;\n*(p + threadIdx.x) = 7;\nint *q = p - 3;\no[threadIdx.x] = p - q;"
    assert verdict(body, "\\forall int j; 0 <= j < 4 ==> a[j + 3] == 7 && o[j] == 3") == {PROVED}


def test_two_pointers_into_one_array_alias() -> None:
    # a write through p is read through q: they are offsets into the one array s
    body = (
        "__shared__ int s[8];\nint *p = s + 1;\nint *q = s;\n"
        "p[threadIdx.x] = threadIdx.x;\n__syncthreads();\no[threadIdx.x] = q[threadIdx.x + 1];"
    )
    assert verdict(body, "\\forall int j; 0 <= j < 4 ==> o[j] == j") == {PROVED}
    assert verdict(body.replace("s + 1", "s + 2"), "\\forall int j; 0 <= j < 4 ==> o[j] == j") >= {REFUTED}


def test_distinct_parameters_do_not_alias() -> None:
    body = "int *p = a;\np[0] = 1;\nb[0] = 2;"
    assert verdict(body, "a[0] == 1") == {PROVED}


def test_a_pointer_with_two_targets_reads_and_writes_the_chosen_one() -> None:
    body = "int *p = threadIdx.x < 2 ? a : b;\np[threadIdx.x] = 5;\no[threadIdx.x] = p[threadIdx.x];"
    ens = "a[0] == 5 && a[1] == 5 && b[2] == 5 && b[3] == 5 && o[3] == 5"
    assert verdict(body, ens) == {PROVED}
    assert verdict(body, "a[0] == 5 && a[1] == 5 && b[2] == 5 && a[3] == 5") >= {REFUTED}
    final = run(body, {"a": [0] * 4, "b": [0] * 4, "o": [0] * 4})
    assert [final["a"].get((i,)) for i in range(4)] == [5, 5, 0, 0]
    assert [final["b"].get((i,)) for i in range(4)] == [0, 0, 5, 5]


def test_reassigned_to_another_array() -> None:
    body = "int *x = a;\nx[0] = 1;\nx = b;\nx[0] = 2;"
    assert verdict(body, "a[0] == 1 && b[0] == 2") == {PROVED}


def test_the_value_written_through_several_targets_is_read_before_the_write() -> None:
    # p[0] = a[0] + 1 with p into a or b: the value is computed once, before any write
    body = "int *p = threadIdx.x == 0 ? a : b;\nif (threadIdx.x < 2) p[threadIdx.x] = a[0] + 1;"
    assert verdict(body, "a[0] == \\old(a[0]) + 1 && b[1] == \\old(a[0]) + 1") == {PROVED}


def test_address_of_a_local_scalar_through_a_device_function() -> None:
    src = "__device__ void set(int *x, int v) { *x = v + 1; }\n" + kernel_src(
        "int y = 0;\nset(&y, threadIdx.x);\no[threadIdx.x] = y;",
        "\\forall int j; 0 <= j < 4 ==> o[j] == j + 1",
    )
    assert set(outcomes(src)) == {PROVED}


def test_pointer_argument_with_an_offset_and_a_callee_that_steps_it() -> None:
    src = "__device__ void fill(int *p, int n) { p += n; p[threadIdx.x] = n; }\n" + kernel_src(
        "fill(a + 1, 2);", "\\forall int j; 0 <= j < 4 ==> a[j + 3] == 2"
    )
    assert set(outcomes(src)) == {PROVED}
    assert set(outcomes(src.replace("a[j + 3]", "a[j + 2]"))) >= {REFUTED}


def test_pointers_in_annotations_and_loop_invariants() -> None:
    body = """int *r = a;
    int k = 0;
    /*@ loop invariant 0 <= k <= 3;
        loop invariant r == a + k;
        loop invariant \\forall int j; 0 <= j < k ==> a[j] == j;
    */
    while (k < 3) { *r = k; r++; k++; }
    /*@ assert r[-1] == 2; */"""
    assert verdict(body, "a[2] == 2") == {PROVED}


def test_shadowing_cannot_redirect_a_pointer() -> None:
    # p points into the parameter a; the inner local a is another array
    body = "int *p = a;\n{ int a[4]; a[0] = 9; p[0] = 1; o[0] = a[0]; }"
    assert verdict(body, "a[0] == 1 && o[0] == 9") == {PROVED}


def test_show_core_names_the_memory() -> None:
    k = lower(kernel_src("int *p = a + 1;\np[threadIdx.x] = 0;", "true"))
    text = "\n".join(show_stmt(k.body))
    assert "a[p.off + tid] := 0" in text
    assert any(d.name == "p.off" and d.kind is core.VarKind.LOCAL for d in k.decls)


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ("int *p = (int *)(unsigned *)a;", "cast from 'unsigned int *' to 'int *'"),
        ("float *f = (float *)a;", "cast from 'int *' to 'float *'"),
        ("int **pp = &a;", "pointers to pointers"),
        ("int *p = a; int *q = b; o[0] = p < q;", "different objects"),
        ("int x; int *p = &x; p += 1;", "pointer arithmetic on a pointer to a single variable"),
        ("int *p = threadIdx.x ? a : b; p[0] += 1;", "several targets"),
        ("int *p = a; long v = (long)p;", "cast from 'int *' to 'long'"),
        ("int *p; o[0] = p[0];", "never given a value"),
    ],
)
def test_what_stays_unsupported_is_named(body: str, words: str) -> None:
    with pytest.raises(UnsupportedError) as e:
        parse_text(kernel_src(body, "true"), "k.cu")
    assert words in e.value.message, e.value.render()
    assert e.value.render().startswith("k.cu:")


def test_pointer_fields_of_a_struct_parameter_by_value_are_arrays() -> None:
    src = "struct S { struct { int *p; int *q; } s; };\n" + kernel_src(
        "A.s.p[threadIdx.x] = A.s.q[threadIdx.x] + 1;",
        "\\forall int j; 0 <= j < 4 ==> A.s.p[j] == A.s.q[j] + 1",
        "S A",
    )
    assert set(outcomes(src)) == {PROVED}
    assert set(outcomes(src.replace("+ 1;\n", "+ 2;\n"))) >= {REFUTED}


@pytest.mark.parametrize(
    ("decl", "body"),
    [
        ("struct S { int *p; };", "S s; s.p = a;"),  # a local struct: its field would be a pointer variable
        ("struct S { int *p; };", "S *s = 0;"),
    ],
)
def test_pointer_fields_elsewhere_stay_unsupported(decl: str, body: str) -> None:
    with pytest.raises(UnsupportedError) as e:
        parse_text(decl + "\n" + kernel_src(body, "true"), "k.cu")
    assert e.value.render().startswith("k.cu:")


def test_writing_constant_memory_through_a_pointer_is_an_error() -> None:
    src = "__constant__ int c[4];\n" + kernel_src("int *p = c;\np[0] = 1;", "true")
    with pytest.raises(SpecError) as e:
        parse_text(src, "k.cu")
    assert "__constant__" in e.value.message


def test_a_pointer_in_an_annotation_must_be_indexed() -> None:
    src = kernel_src("int *p = a;\n/*@ assert p > 0; */", "true")
    with pytest.raises(SpecError) as e:
        parse_text(src, "k.cu")
    assert "pointer 'p' in an annotation" in e.value.message


def test_a_row_of_a_parameter_chosen_by_a_variable_is_unsupported_by_name() -> None:
    # `t[i]` of `int t[][4]` is a row that decays to a pointer: not an offset into `t`
    src = """
        __global__ void k(int t[][4], int *out) {
            int *r = t[threadIdx.x];
            out[threadIdx.x] = r[1];
        }
        """
    with pytest.raises(UnsupportedError, match="a pointer into a row chosen by a variable") as e:
        lower(src)
    assert ".mem" not in str(e.value)
