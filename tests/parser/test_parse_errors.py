"""The front end on bad input: Clang's errors, unsupported constructs, annotation syntax
errors, misplaced clauses, macros in annotations."""

from __future__ import annotations

import pathlib

import pytest

from hoaregpu.errors import SpecError, UnsupportedError
from hoaregpu.frontend import parse_file, parse_text
from hoaregpu.parser import parse_expr, parse_formula
from hoaregpu.terms import Binary, BinOp, IntLit, Var

CLANG_HINT = "reported by clang"


def in_kernel(stmt: str) -> str:
    """`stmt` on line 2, column 3 of a kernel."""
    return f"__global__ void k(int n, int *a) {{\n  {stmt}\n}}\n"


def error_of(text: str) -> SpecError:
    with pytest.raises(SpecError) as info:
        parse_text(text, "bad.cu")
    return info.value


# (statement on line 2 starting at column 3, column of the error, words in the message).
# Clang places a declaration at its name and an expression at its first token.
UNSUPPORTED_STMTS = [
    ("long double f;", 15, "type 'long double'"),
    ("dim3 g;", 8, "type 'dim3'"),
    ("goto end; end: ;", 3, "'goto' and labels"),
    ("switch (n) { }", 3, "'switch' statement"),
    ("do { } while (n);", 3, "'do' statement"),
    ("if (int m = n) { }", 3, "declaration inside an 'if' condition"),
    ("atomicAdd(n ? a : a, 1);", 13, "this pointer argument of 'atomicAdd'"),
    ('printf("%d", n);', 3, "call to 'printf'"),
    ("__shfl_down_sync(0, n, 1);", 3, "call to '__shfl_down_sync'"),
    ("__syncwarp();", 3, "call to '__syncwarp'"),
    ("n = __shfl_xor(n, 1);", 7, "call to '__shfl_xor'"),
    ("n = __popc(n);", 7, "call to '__popc'"),
    ("n = __clz(n);", 7, "call to '__clz'"),
    ("int **pp;", 9, "pointers to pointers"),
    ("int *q[2];", 8, "arrays of pointers"),
    ("int *p = 0;", 12, "null pointers"),
    ("int *p = (int *)n;", 12, "cast from 'int' to 'int *'"),
    ("int *p = (int *)(unsigned *)a;", 12, "cast from 'unsigned int *' to 'int *'"),
    ("n = (long)a;", 7, "cast from 'int *' to 'long'"),
    ("int *p = a; n = (p != 0);", 25, "null pointers"),
    ("int x; int *p = &x; p++;", 23, "pointer arithmetic on a pointer to a single variable"),
    ("int x; int *p = &x; p[1] = 0;", 23, "indexing a pointer to a single variable"),
    ("int *p = a; n = (long)p;", 19, "cast from 'int *' to 'long'"),
    ("int *p = a; n = p ? 1 : 0;", 19, "the value of pointer 'p'"),
    ("int *p; p[0] = 1;", 11, "never given a value"),
    ("n = n++;", 7, "'++'/'--' inside an expression"),
    ("n = --n;", 7, "'++'/'--' inside an expression"),
    ("a[n++] = 1;", 5, "'++'/'--' inside an expression"),
    ("n = a[0] = 1;", 7, "assignment inside an expression"),
    ("n = (n += 1);", 8, "assignment inside an expression"),
    ("n = 1, n = 2;", 3, "comma operator"),
    ("n + 1;", 3, "expression statement"),
    ("int b[2] = {1, 2};", 14, "array initialisers"),
]


@pytest.mark.parametrize(("stmt", "col", "words"), UNSUPPORTED_STMTS)
def test_unsupported_construct_named_at_its_position(stmt: str, col: int, words: str) -> None:
    err = error_of(in_kernel(stmt))
    assert isinstance(err, UnsupportedError), err.render()
    assert words in err.message
    assert (err.span.path, err.span.line, err.span.col) == ("bad.cu", 2, col), err.render()
    assert err.render().startswith(f"bad.cu:2:{col}: error: unsupported: ")


@pytest.mark.parametrize(
    ("text", "line", "col", "words"),
    [
        ("template <typename T> __global__ void k(T *a) {}\n", 1, 39, "kernel templates"),
        ("//@ loop variant n;\n__global__ void k() {}\n", 1, 5, "clause 'loop variant'"),
        ("//@ assigns a[0];\n__global__ void k() {}\n", 1, 5, "clause 'assigns'"),
        (
            "//@ requires \\forall float x; x == x;\n__global__ void k() {}\n",
            1,
            22,
            "quantifier over 'float'",
        ),
    ],
)
def test_unsupported_file_level(text: str, line: int, col: int, words: str) -> None:
    err = error_of(text)
    assert isinstance(err, UnsupportedError), err.render()
    assert words in err.message
    assert (err.span.line, err.span.col) == (line, col), err.render()


# Clang's own diagnostics: the position is Clang's, the wording is Clang's (not pinned here).
CLANG_ERRORS = [
    (in_kernel("int x = 1\n  x = 2;"), 2, 12),
    (in_kernel("n = 1 +;"), 2, 10),
    (in_kernel("while (n < ) n++;"), 2, 14),
    (in_kernel("if (n { }"), 2, 9),
    (in_kernel("if n > 0 { }"), 2, 6),
    (in_kernel("a[1;"), 2, 6),
    (in_kernel("for (n = 0; n < 3) ;"), 2, 20),
    (in_kernel("else n = 1;"), 2, 3),
    (in_kernel("__syncthreads;"), 2, 3),
    (in_kernel("n = __syncthreads();"), 2, 7),
    (in_kernel("n = n ==> 1;"), 2, 11),
    (in_kernel("n = \\old(n);"), 2, 7),
    (in_kernel("n = 08;"), 2, 8),
    (in_kernel("n = threadIdx.w;"), 2, 17),
    (in_kernel("n = (n + 1)[0];"), 2, 14),
    (in_kernel("n = foo(1);"), 2, 7),
    (in_kernel("tid = 1;"), 2, 7),  # the prelude's `tid` is const
    (in_kernel("struct S s;"), 2, 12),
    (in_kernel("int v[n];"), 2, 8),
    (in_kernel('n = "s";'), 2, 7),
    (in_kernel("__shared__ int s = 1;"), 2, 18),
    ("#define N 4\n" + in_kernel("N = 1;"), 3, 5),
    ("#define N 4\n" + in_kernel("int N;"), 3, 7),
    ("__global__ void k(int n, int n) {}\n", 1, 30),
    ("__global__ void k() {}\n__global__ void k() {}\n", 2, 17),
    ("__global__ int k() {}\n", 1, 12),
    ("__global__ void k() {}\n}\n", 2, 1),
    ("/* never closed\n__global__ void k() {}\n", 1, 1),
    ('#include "helper.h"\n__global__ void k() {}\n', 1, 10),
    ("#error boom\n__global__ void k() {}\n", 1, 2),
    ("#pragma unroll\n", 1, 1),
    ("\x01", 1, 1),
]


@pytest.mark.parametrize(("text", "line", "col"), CLANG_ERRORS)
def test_clang_errors_at_clangs_position(text: str, line: int, col: int) -> None:
    err = error_of(text)
    assert not isinstance(err, UnsupportedError), err.render()
    assert err.hint == CLANG_HINT, err.render()
    assert (err.span.path, err.span.line, err.span.col) == ("bad.cu", line, col), err.render()
    assert err.render().startswith(f"bad.cu:{line}:{col}: error: ")


def test_clang_error_says_how_many_more() -> None:
    err = error_of("__global__ void k() {\n  n = 1;\n  m = 2;\n}\n")
    assert (err.span.line, err.span.col) == (2, 3)
    assert "'n'" in err.message and err.message.endswith("(and 1 more error)")


def test_clang_error_rendering_quotes_the_line() -> None:
    err = error_of("//@ requires n >= 0;\n__global__ void k(int n) {\n  n = n == ;\n}\n")
    assert err.render() == (
        "bad.cu:3:12: error: expected expression\n      n = n == ;\n               ^\nnote: reported by clang"
    )


@pytest.mark.parametrize(
    "text",
    [
        "",
        "// nothing\n/* here */\n/*@ */\n",
        "__device__ int f() { return 1; }\n",
        "int main() { return 0; }\n",
        "#define N 4\n",
        "__global__ void k(int n);\n",  # a declaration, no definition
        "#if 0\n__global__ void k() {}\n#endif\n",
    ],
)
def test_file_without_kernel(text: str) -> None:
    err = error_of(text)
    assert err.message == "no '__global__' kernel in the file"
    assert (err.span.line, err.span.col) == (1, 1)
    # a file of device functions only (GPUVerify tests their `__ensures` so) says so
    assert ("only device functions (f)" in (err.hint or "")) == text.startswith("__device__ int f")


def test_host_variable_in_device_code_says_what_to_do() -> None:
    err = error_of("int x;\n__global__ void k(int *a) { a[0] = x; }\n")
    assert "reference to __host__ variable 'x'" in err.message
    assert err.hint is not None and "declare it '__device__'" in err.hint
    assert (err.span.line, err.span.col) == (2, 36)


def test_align_of_cuda_is_known() -> None:
    spec = parse_text(
        "typedef struct __align__(16) { int a, b; } P;\n__global__ void k(P *p) { p[0].a = 1; }\n"
    )
    assert [k.name for k in spec.kernels] == ["k"]


@pytest.mark.parametrize(
    ("text", "line", "col", "message"),
    [
        (
            "__global__ void k(int n) { n = 1; /*@ assert n */ }\n",
            1,
            47,
            "expected ';' at the end of the clause",
        ),
        ("//@ requires n > 0\n__global__ void k() {}\n", 1, 19, "expected ';' at the end of the clause"),
        ("//@ ensures x = 1;\n__global__ void k() {}\n", 1, 15, "'=' is assignment; compare with '=='"),
        ("//@ requires ;\n__global__ void k() {}\n", 1, 14, "expected an expression after 'requires'"),
        ("//@ requires a < b > c;\n__global__ void k() {}\n", 1, 20, "must go one way"),
        ("//@ requires a != b != c;\n__global__ void k() {}\n", 1, 21, "'!=' cannot be chained"),
        ("//@ requires \\forall int j j > 0;\n__global__ void k() {}\n", 1, 27, "';' after the bound"),
        ("//@ requires \\forall int i, i; i;\n__global__ void k() {}\n", 1, 29, "bound twice"),
        ("//@ requires \\foo(x);\n__global__ void k() {}\n", 1, 14, "unknown built-in '\\foo'"),
        ("//@ requires x @;\n__global__ void k() {}\n", 1, 17, "expected an expression after '@'"),
        ("//@ frobnicate x;\n__global__ void k() {}\n", 1, 5, "expected a clause ('requires'"),
        ("//@ requires x;", 1, 5, "'requires' may only appear in the contract annotation"),
        ("//@ requires threadIdx.w;\n__global__ void k() {}\n", 1, 14, "has no member 'w'"),
        ("//@ requires __syncthreads();\n__global__ void k() {}\n", 1, 14, "must stand alone"),
    ],
)
def test_annotation_syntax_errors(text: str, line: int, col: int, message: str) -> None:
    err = error_of(text)
    assert message in err.message, err.render()
    assert err.hint != CLANG_HINT
    assert (err.span.line, err.span.col) == (line, col), err.render()


def test_annotation_inside_an_expression() -> None:
    err = error_of(in_kernel("n = 1 + /*@ assert true; */ 2;"))
    assert "inside an expression or declaration" in err.message
    assert (err.span.line, err.span.col) == (2, 11)


@pytest.mark.parametrize(
    ("annotation", "clause", "where"),
    [
        (
            "/*@ requires n > 0; */",
            "requires",
            "in the contract annotation right before a '__global__' kernel",
        ),
        ("//@ ensures n > 0;", "ensures", "in the contract annotation"),
        ("//@ loop invariant n > 0;\n  n = 1;", "loop invariant", "right before a 'while' or 'for' loop"),
        ("//@ loop invariant n > 0;", "loop invariant", "right before a 'while' or 'for' loop"),
        ("if (n) //@ loop invariant n > 0;\n  n = 1;", "loop invariant", "before a 'while' or 'for'"),
    ],
)
def test_misplaced_clause_in_body(annotation: str, clause: str, where: str) -> None:
    err = error_of(in_kernel(annotation))
    assert err.message.startswith(f"'{clause}' may only appear")
    assert where in err.message
    assert err.span.line == 2


@pytest.mark.parametrize("clause", ["assert", "assume", "loop invariant"])
def test_misplaced_clause_in_contract(clause: str) -> None:
    err = error_of(f"/*@ requires true;\n    {clause} n > 0; */\n__global__ void k(int n) {{}}\n")
    assert err.message.startswith(f"'{clause}' may only appear")
    assert (err.span.line, err.span.col) == (2, 5)


def test_contract_without_kernel() -> None:
    err = error_of("__global__ void k() {}\n//@ ensures true;\n")
    assert "'ensures' may only appear in the contract annotation" in err.message
    assert err.span.line == 2


def test_contract_before_host_code_is_misplaced() -> None:
    """A contract belongs to the kernel right after it, not to a host function."""
    err = error_of("//@ requires n > 0;\nint host(int n) { return n; }\n__global__ void k(int n) {}\n")
    assert err.message.startswith("'requires' may only appear in the contract annotation")
    assert (err.span.line, err.span.col) == (1, 5)


# ---------------------------------------------------------------- macros in annotations


@pytest.mark.parametrize(
    ("defines", "use", "col", "why"),
    [
        ("#define F(x) ((x) + 1)\n", "F(1) > 0", 14, "is function-like"),
        ("#define F(x) ((x) + 1)\n", "F > 0", 14, "is function-like"),
        ("#define M 2+1\n", "M * 2 == 6", 14, "not one token or one parenthesised expression"),
        ("#define EMPTY\n", "EMPTY == 0", 14, "not one token or one parenthesised expression"),
        ("#define M (1 +)\n", "M == 0", 14, "not an integer expression"),
        ("#define N 4\n#undef N\n#define N 5\n", "N == 5", 14, "defined more than once or '#undef'd"),
        ("#define N 4\n#undef N\n", "N == 4", 14, "defined more than once or '#undef'd"),
        # the lexer skips the search for `#undef` in a file without the word: not when a
        # line splice spells it
        ("#define N 4\n#un\\\ndef N\n", "N == 4", 14, "defined more than once or '#undef'd"),
    ],
)
def test_unusable_macro_in_annotation(defines: str, use: str, col: int, why: str) -> None:
    text = f"{defines}//@ requires {use};\n__global__ void k(int n) {{}}\n"
    err = error_of(text)
    assert isinstance(err, UnsupportedError), err.render()
    name = use.split("(")[0].split()[0]
    assert err.message == f"unsupported: macro '{name}' in an annotation"
    line = defines.count("\n") + 1
    assert (err.span.line, err.span.col) == (line, col), err.render()
    assert err.hint is not None and why in err.hint and "(defined at line 1)" in err.hint


def test_macro_usable_in_code_but_not_in_annotation() -> None:
    """The same macro is fine in code (Clang expands it) and refused in the annotation."""
    src = "#define M 2+1\n__global__ void k(int *a) {\n  a[0] = M * 2;\n  //@ assert a[0] == M * 2;\n}\n"
    err = error_of(src)
    assert "macro 'M'" in err.message and (err.span.line, err.span.col) == (4, 22)


def test_macro_defined_after_the_annotation_is_a_plain_name() -> None:
    """A macro defined below an annotation does not apply to it (as in C): the name stays a
    variable, and a function-like macro defined later is not blamed."""
    spec = parse_text("//@ requires F > 0;\n__global__ void k(int F) {}\n#define F(x) x\n")
    assert spec.kernels[0].requires[0].formula == Binary(BinOp.GT, Var("F", ()), IntLit(0))


# ---------------------------------------------------------------- other failures


def test_unsupported_render_has_hint() -> None:
    err = error_of(in_kernel("long double x;"))
    assert err.render().splitlines()[-1].startswith("note: supported types: bool and the integer types")


def test_formula_error_rendering() -> None:
    with pytest.raises(SpecError) as info:
        parse_text("/*@ ensures \\forall int j; a[j] == ;\n*/\n__global__ void k() {}\n", "specs/r.cu")
    assert info.value.render() == (
        "specs/r.cu:1:36: error: expected an expression after '=='\n"
        "    /*@ ensures \\forall int j; a[j] == ;\n"
        "                                       ^"
    )


def test_parse_expr_and_formula_errors() -> None:
    with pytest.raises(SpecError, match="expected the end of the expression"):
        parse_expr("a b")
    with pytest.raises(SpecError, match="only allowed in annotations"):
        parse_expr("\\all(x)")
    with pytest.raises(SpecError, match="expected '\\)'"):
        parse_formula("\\old(x")
    with pytest.raises(UnsupportedError):
        parse_formula("f(x) > 0")


def test_deep_nesting_is_a_spec_error() -> None:
    deep = "(" * 3000 + "x" + ")" * 3000
    with pytest.raises(SpecError, match="nested too deeply") as info:
        parse_formula(deep)
    assert info.value.span.line == 1
    assert parse_formula("(" * 60 + "x" + ")" * 60) is not None


def test_deep_nesting_in_an_annotation() -> None:
    ok = "//@ requires " + "(" * 80 + "n" + ")" * 80 + " > 0;\n__global__ void k(int n) {}\n"
    assert len(parse_text(ok).kernels[0].requires) == 1
    err = error_of("\n//@ requires " + "(" * 3000 + "n" + ")" * 3000 + " > 0;\n__global__ void k(int n) {}\n")
    assert "nested too deeply" in err.message and err.span.line == 2


def test_long_expression_in_code() -> None:
    """A sum of 1500 terms is 1500 nested binary operators in Clang's AST: it translates."""
    src = "__global__ void k(int n) { n = " + " + ".join(["n"] * 1500) + "; }\n"
    assert parse_text(src).kernels[0].name == "k"


def test_parse_file_missing_and_binary(tmp_path: pathlib.Path) -> None:
    with pytest.raises(SpecError, match="cannot read the file"):
        parse_file(str(tmp_path / "missing.cu"))
    bad = tmp_path / "bad.cu"
    bad.write_bytes(b"\xff\xfe__global__")
    with pytest.raises(SpecError, match="not valid UTF-8"):
        parse_file(str(bad))
    good = tmp_path / "good.cu"
    good.write_text("__global__ void k() {}\n")
    assert parse_file(str(good)).kernels[0].name == "k"


def test_clang_error_in_a_file_names_the_file(tmp_path: pathlib.Path) -> None:
    """Clang parses the file under an absolute name; messages use the name the user gave."""
    spec = tmp_path / "k.cu"
    spec.write_text("__global__ void k() {\n  x = 1;\n}\n")
    with pytest.raises(SpecError) as info:
        parse_file(str(spec))
    assert (info.value.span.path, info.value.span.line, info.value.span.col) == (str(spec), 2, 3)
