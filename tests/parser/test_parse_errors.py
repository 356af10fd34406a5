"""The parser on bad input: unsupported constructs, syntax errors, misplaced clauses."""

from __future__ import annotations

import pytest

from hoaregpu.errors import SpecError, UnsupportedError
from hoaregpu.frontend import parse_file, parse_text
from hoaregpu.parser import parse_expr, parse_formula


def in_kernel(stmt: str) -> str:
    """`stmt` on line 2, column 3 of a kernel."""
    return f"__global__ void k(int n, int *a) {{\n  {stmt}\n}}\n"


def error_of(text: str) -> SpecError:
    with pytest.raises(SpecError) as info:
        parse_text(text, "bad.cu")
    return info.value


# (statement on line 2 starting at column 3, column of the error, words in the message)
UNSUPPORTED_STMTS = [
    ("float f;", 3, "type 'float'"),
    ("double d = 1;", 3, "type 'double'"),
    ("char c;", 3, "type 'char'"),
    ("long l;", 3, "type 'long'"),
    ("short s;", 3, "type 'short'"),
    ("unsigned long ul;", 3, "type 'unsigned long'"),
    ("uint32_t w;", 3, "type 'uint32_t'"),
    ("dim3 g;", 3, "type 'dim3'"),
    ("return;", 3, "'return' statement"),
    ("break;", 3, "'break' statement"),
    ("continue;", 3, "'continue' statement"),
    ("goto end;", 3, "'goto' statement"),
    ("switch (n) { }", 3, "'switch' statement"),
    ("do { } while (n);", 3, "'do' statement"),
    ("atomicAdd(a, 1);", 3, "call to 'atomicAdd'"),
    ('printf("%d", n);', 3, "call to 'printf'"),
    ("__shfl_down_sync(0, n, 1);", 3, "call to '__shfl_down_sync'"),
    ("n = foo(1);", 7, "call to 'foo'"),
    ("n = __shfl_xor(n, 1);", 7, "call to '__shfl_xor'"),
    ("n = threadIdx.y;", 7, "'threadIdx.y'"),
    ("n = threadIdx.z;", 7, "'threadIdx.z'"),
    ("n = blockDim.y;", 7, "'blockDim.y'"),
    ("n = blockIdx.x * blockDim.x;", 7, "'blockIdx'"),
    ("n = gridDim.x;", 7, "'gridDim'"),
    ("n = warpSize;", 7, "'warpSize'"),
    ("*a = 1;", 3, "pointer dereference"),
    ("n = *a;", 7, "pointer dereference"),
    ("n = &n;", 7, "address-of"),
    ("int *p;", 7, "pointer variables"),
    ("n = n++;", 8, "'++' inside an expression"),
    ("n = --n;", 7, "'--' inside an expression"),
    ("a[n++] = 1;", 6, "'++' inside an expression"),
    ("n = a[0] = 1;", 12, "assignment '=' inside an expression"),
    ("n = (n += 1);", 10, "assignment '+=' inside an expression"),
    ("n = (int) 1.0;", 7, "cast"),
    ("n = (unsigned)n;", 7, "cast"),
    ("n = sizeof(int);", 7, "'sizeof'"),
    ("struct S s;", 3, "'struct'"),
    ("n = s.x;", 8, "member access"),
    ("n = p->x;", 8, "member access"),
    ('n = "s";', 7, "string literal"),
    ("n = 'c';", 7, "character literal"),
    ("n = 1.5;", 7, "floating-point literal"),
    ("n = 2.0f;", 7, "floating-point literal"),
    ("n = 10L;", 7, "long integer literal"),
    ("n = n & 1;", 9, "bitwise operator '&'"),
    ("n = n | 1;", 9, "bitwise operator '|'"),
    ("n = n ^ 1;", 9, "bitwise operator '^'"),
    ("n = ~n;", 7, "bitwise operator '~'"),
    ("n &= 1;", 5, "bitwise assignment"),
    ("n = 1, n = 2;", 8, "comma operator"),
    ("int b[2] = {1, 2};", 14, "array initialisers"),
    ("extern __shared__ int s[];", 3, "'extern'"),
]


@pytest.mark.parametrize(("stmt", "col", "words"), UNSUPPORTED_STMTS)
def test_unsupported_construct(stmt: str, col: int, words: str) -> None:
    err = error_of(in_kernel(stmt))
    assert isinstance(err, UnsupportedError), err.render()
    assert words in err.message
    assert (err.span.path, err.span.line, err.span.col) == ("bad.cu", 2, col), err.render()
    assert err.render().startswith(f"bad.cu:2:{col}: error: unsupported: ")


@pytest.mark.parametrize(
    ("text", "line", "col", "words"),
    [
        ("__device__ int f() { return 1; }\n", 1, 1, "'__device__'"),
        ("__host__ void f() {}\n", 1, 1, "'__host__'"),
        ("int main() { return 0; }\n", 1, 1, "host code"),
        ("__global__ void k(float *x) {}\n", 1, 19, "type 'float'"),
        ("__global__ void k(double x) {}\n", 1, 19, "type 'double'"),
        ("//@ ensures \\result == 0;\n__global__ void k() {}\n", 1, 13, "'\\result'"),
        ("//@ loop variant n;\n__global__ void k() {}\n", 1, 5, "clause 'loop variant'"),
        ("//@ assigns a[0];\n__global__ void k() {}\n", 1, 5, "clause 'assigns'"),
        (
            "//@ requires \\forall float x; x == x;\n__global__ void k() {}\n",
            1,
            22,
            "quantifier over 'float'",
        ),
        ("#pragma unroll\n", 1, 1, "'#pragma'"),
        ("\n  #if 0\n#endif\n", 2, 3, "'#if'"),
        ("#define F(x) ((x) + 1)\n", 1, 9, "function-like macro"),
        ("#define EMPTY\n", 1, 9, "without a value"),
        ("#define N \\\n 3\n", 1, 1, "continued"),
    ],
)
def test_unsupported_file_level(text: str, line: int, col: int, words: str) -> None:
    err = error_of(text)
    assert isinstance(err, UnsupportedError), err.render()
    assert words in err.message
    assert (err.span.line, err.span.col) == (line, col), err.render()


@pytest.mark.parametrize(
    ("text", "line", "col", "message"),
    [
        (in_kernel("int x = 1\n  x = 2;"), 2, 12, "expected ';' after the statement"),
        (in_kernel("n = 1 +;"), 2, 10, "expected an expression after '+'"),
        (in_kernel("while (n < ) n++;"), 2, 14, "expected an expression after '<'"),
        (in_kernel("if (n { }"), 2, 9, "expected ')' after 'n'"),
        (in_kernel("if n > 0 { }"), 2, 6, "expected '(' after 'if'"),
        (in_kernel("a[1;"), 2, 6, "expected ']' after '1'"),
        (in_kernel("n + 1;"), 2, 5, "expected an assignment"),
        (in_kernel("for (n = 0; n < 3) ;"), 2, 20, "expected ';' after the loop's condition"),
        (in_kernel("else n = 1;"), 2, 3, "'else' without a matching 'if'"),
        (in_kernel("__syncthreads;"), 2, 16, "expected '(' after '__syncthreads'"),
        (in_kernel("n = __syncthreads();"), 2, 7, "'__syncthreads()' must stand alone"),
        (in_kernel("n = 1 < 2 < 3;"), 2, 13, "chained comparisons are only allowed in annotations"),
        (in_kernel("n = n ==> 1;"), 2, 9, "'==>' is only allowed in annotations"),
        (in_kernel("n = n <==> 1;"), 2, 9, "'<==>' is only allowed in annotations"),
        (in_kernel("n = n @ 1;"), 2, 9, "'@' is only allowed in annotations"),
        (in_kernel("n = \\old(n);"), 2, 7, "'\\old' is only allowed in annotations"),
        (in_kernel("n = \\forall int j; j;"), 2, 7, "'\\forall' is only allowed in annotations"),
        (in_kernel("n = 08;"), 2, 7, "invalid integer literal '08'"),
        (in_kernel("n = threadIdx;"), 2, 7, "expected '.x' after 'threadIdx'"),
        (in_kernel("n = threadIdx.w;"), 2, 7, "has no member 'w'"),
        (in_kernel("n = (n + 1)[0];"), 2, 7, "only a variable can be indexed"),
        (in_kernel("int tid = 0;"), 2, 7, "'tid' is a built-in name"),
        (in_kernel("tid = 1;"), 2, 3, "cannot assign to 'tid'"),
        (in_kernel("__shared__ int s = 1;"), 2, 18, "cannot have an initialiser"),
        ("#define N 4\n" + in_kernel("N = 1;"), 3, 3, "cannot assign to 'N'"),
        ("#define N 4\n" + in_kernel("int N;"), 3, 7, "#define'd constant"),
        ("#define N 4\n#define N 5\n", 2, 9, "'N' is defined twice"),
        ("#define N 4 +\n", 1, 14, "expected an expression after '+'"),
        ("__global__ void k(int n, int n) {}\n", 1, 26, "two parameters are named 'n'"),
        ("__global__ void k(int tid) {}\n", 1, 23, "'tid' is a built-in name"),
        ("__global__ void k() {}\n__global__ void k() {}\n", 2, 1, "a kernel named 'k' is already defined"),
        ("__global__ int k() {}\n", 1, 12, "expected 'void'"),
        ("__global__ void k( {}\n", 1, 20, "expected ')' or another parameter"),
        ("__global__ void k() {\n  n = 1;\n", 2, 9, "expected a statement or '}'"),
        ("__global__ void k() {}\n}\n", 2, 1, "expected a '__global__' kernel"),
        ("/* never closed\n__global__ void k() {}\n", 1, 1, "unterminated comment"),
        ("__global__ void k() { n = 1; /*@ assert n */ }\n", 1, 42, "expected ';' at the end of the clause"),
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
        ("\x01", 1, 1, "unexpected control character"),
    ],
)
def test_syntax_errors(text: str, line: int, col: int, message: str) -> None:
    err = error_of(text)
    assert message in err.message, err.render()
    assert (err.span.line, err.span.col) == (line, col), err.render()


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


def test_rendered_message_quotes_line_with_caret() -> None:
    err = error_of("//@ requires n >= 0;\n__global__ void k(int n) {\n  n = n == ;\n}\n")
    assert err.render() == (
        "bad.cu:3:12: error: expected an expression after '=='\n      n = n == ;\n               ^"
    )


def test_formula_error_rendering() -> None:
    with pytest.raises(SpecError) as info:
        parse_text("/*@ ensures \\forall int j; a[j] == ;\n*/\n__global__ void k() {}\n", "specs/r.cu")
    assert info.value.render() == (
        "specs/r.cu:1:36: error: expected an expression after '=='\n"
        "    /*@ ensures \\forall int j; a[j] == ;\n"
        "                                       ^"
    )


def test_unsupported_render_has_hint() -> None:
    err = error_of(in_kernel("float x;"))
    assert err.render().splitlines()[-1].startswith("note: supported types: int")


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


def test_parse_file_missing_and_binary(tmp_path: object) -> None:
    import pathlib

    assert isinstance(tmp_path, pathlib.Path)
    with pytest.raises(SpecError, match="cannot read the file"):
        parse_file(str(tmp_path / "missing.cu"))
    bad = tmp_path / "bad.cu"
    bad.write_bytes(b"\xff\xfe__global__")
    with pytest.raises(SpecError, match="not valid UTF-8"):
        parse_file(str(bad))
    good = tmp_path / "good.cu"
    good.write_text("__global__ void k() {}\n")
    assert parse_file(str(good)).kernels[0].name == "k"
