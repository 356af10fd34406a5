"""Clang's preprocessor runs the program part; annotation comments are found by Clang's
lexer and keep exact lines and columns (in characters, not bytes)."""

from __future__ import annotations

import pytest

from hoaregpu.errors import Span, SpecError, UnsupportedError
from hoaregpu.frontend import ClangOptions, parse_text
from hoaregpu.syntax import AnnotStmt, AssignOp, AssignStmt, Block, ClauseKind
from hoaregpu.terms import Binary, BinOp, IntLit, Term, ThreadId, Var

SET = AssignOp.SET


def v(name: str, *idx: Term) -> Var:
    return Var(name, tuple(idx))


def b(op: str, left: Term, right: Term) -> Binary:
    return Binary(BinOp(op), left, right)


def i(n: int) -> IntLit:
    return IntLit(n)


def body(text: str, options: ClangOptions | None = None) -> Block:
    return parse_text(text, "p.cu", options).kernels[0].body


def test_comments_keep_positions() -> None:
    k = parse_text("__global__ void k(int *a) { /* x\n y */ a[0] = 1; // c\n  a[1] = 2; }\n", "p.cu").kernels[
        0
    ]
    assert [s.span for s in k.body.stmts] == [Span("p.cu", 2, 7), Span("p.cu", 3, 3)]


def test_annotation_comment_styles() -> None:
    k = parse_text(
        "/*@ requires x > 0;\n  @ ensures y > 0; @*/\n//@ requires z > 0;\n"
        "__global__ void k(int x, int y, int z) {}\n",
        "p.cu",
    ).kernels[0]
    assert [(c.formula, c.span) for c in k.requires] == [
        (b(">", v("x"), i(0)), Span("p.cu", 1, 5)),
        (b(">", v("z"), i(0)), Span("p.cu", 3, 5)),
    ]
    assert [c.span for c in k.ensures] == [Span("p.cu", 2, 5)]


def test_comment_inside_an_annotation() -> None:
    k = parse_text(
        "/*@ requires a > 0; // why: a is a size\n    ensures true; */\n"
        "//@ requires b > 0; // trailing\n__global__ void k(int a, int b) {}\n"
    ).kernels[0]
    assert [c.formula for c in k.requires] == [b(">", v("a"), i(0)), b(">", v("b"), i(0))]
    assert len(k.ensures) == 1


def test_annotation_in_a_string_is_not_an_annotation() -> None:
    k = parse_text('const char *s = "//@ requires false;";\n__global__ void k() {}\n').kernels[0]
    assert k.requires == ()


def test_crlf_line_endings() -> None:
    src = "//@ requires n > 0;\r\n__global__ void k(int n) {\r\n  n = 1;\r\n}\r\n"
    k = parse_text(src, "crlf.cu").kernels[0]
    assert k.requires[0].span == Span("crlf.cu", 1, 5)
    assert k.body.stmts[0].span == Span("crlf.cu", 3, 3)


def test_annotation_after_code_on_same_line() -> None:
    k = parse_text(
        "__global__ void k(int x, int y) { x = 1; //@ assert x == 1;\n  y = 2; }\n", "s.cu"
    ).kernels[0]
    assert [type(s).__name__ for s in k.body.stmts] == ["AssignStmt", "AnnotStmt", "AssignStmt"]
    assert k.body.stmts[1].span == Span("s.cu", 1, 46)
    assert k.body.stmts[2].span == Span("s.cu", 2, 3)


def test_unicode_before_annotations_counts_characters() -> None:
    """Clang reports byte offsets; spans count characters (é, ✓ and 𝛼 are 2, 3, 4 bytes)."""
    src = (
        "// é ✓ 𝛼\n/* ✓✓ */ //@ requires n > 0;\n"
        "__global__ void k(int n) { /* ü */ n = 1; //@ assert n == 1;\n}\n"
    )
    k = parse_text(src, "u.cu").kernels[0]
    assert k.requires[0].span == Span("u.cu", 2, 14)
    assert k.requires[0].formula.span == Span("u.cu", 2, 23)
    assign, annot = k.body.stmts
    assert assign.span == Span("u.cu", 3, 36)
    assert isinstance(annot, AnnotStmt) and annot.span == Span("u.cu", 3, 47)
    with pytest.raises(SpecError) as info:
        parse_text("/* 𝛼𝛼 */ //@ requires n >;\n__global__ void k(int n) {}\n", "u.cu")
    assert (info.value.span.line, info.value.span.col) == (1, 26)


def test_hash_inside_annotation_is_not_a_directive() -> None:
    with pytest.raises(SpecError) as info:
        parse_text("/*@\n#define X 1\n*/\n__global__ void k() {}\n")
    assert (info.value.span.line, info.value.span.col) == (2, 1)


# ---------------------------------------------------------------- macros and conditionals


def test_defines_in_code_and_annotations() -> None:
    spec = parse_text(
        "#define N 4 /* four */\n#define M (N * 2) // doubled\n"
        "//@ requires a[0] == M;\n__global__ void k(int *a) { a[1] = N; }\n",
        "d.cu",
    )
    assert [(d.name, d.value, d.span) for d in spec.defines] == [
        ("N", i(4), Span("d.cu", 1, 9)),
        ("M", b("*", i(4), i(2)), Span("d.cu", 2, 9)),
    ]
    k = spec.kernels[0]
    assert k.requires[0].formula == b("==", v("a", i(0)), b("*", i(4), i(2)))
    assert k.body.stmts[0] == AssignStmt(v("a", i(1)), SET, i(4), span=None)  # type: ignore[arg-type]


def test_function_like_macros_in_code() -> None:
    src = (
        "#define SQ(x) ((x) * (x))\n#define AT(i) a[(i) + 1]\n"
        "__global__ void k(int *a, int n) { AT(n) = SQ(n + 1); }\n"
    )
    (s,) = body(src).stmts
    assert s == AssignStmt(
        v("a", b("+", v("n"), i(1))),
        SET,
        b("*", b("+", v("n"), i(1)), b("+", v("n"), i(1))),
        span=None,  # type: ignore[arg-type]
    )


CONDITIONAL = """\
#ifdef FAST
#define STEP 2
#elif defined(SLOW) && SLOW > 1
#define STEP SLOW
#else
#define STEP 1
#endif
#if STEP > 1
//@ requires a[0] == STEP;
#endif
__global__ void k(int *a) {
#if STEP == 1
  a[0] = 1;
#else
  a[1] = STEP;
#endif
}
"""


@pytest.mark.parametrize(
    ("defines", "stmt", "requires"),
    [
        ((), AssignStmt(v("a", i(0)), SET, i(1), span=None), ()),  # type: ignore[arg-type]
        (("FAST",), AssignStmt(v("a", i(1)), SET, i(2), span=None), (b("==", v("a", i(0)), i(2)),)),  # type: ignore[arg-type]
        (("SLOW=3",), AssignStmt(v("a", i(1)), SET, i(3), span=None), None),  # type: ignore[arg-type]
    ],
)
def test_conditionals_and_command_line_defines(
    defines: tuple[str, ...], stmt: AssignStmt, requires: tuple[Term, ...] | None
) -> None:
    spec = parse_text(CONDITIONAL, "c.cu", ClangOptions(defines=defines))
    k = spec.kernels[0]
    assert k.body.stmts == (stmt,)
    if requires is not None:
        assert tuple(c.formula for c in k.requires) == requires


def test_command_line_define_in_code() -> None:
    (s,) = body("__global__ void k(int *a) { a[0] = N * 2; }\n", ClangOptions(defines=("N=7",))).stmts
    assert s == AssignStmt(v("a", i(0)), SET, b("*", i(7), i(2)), span=None)  # type: ignore[arg-type]


def test_annotations_in_skipped_regions_are_ignored() -> None:
    src = (
        "#if 0\n//@ requires false;\n#endif\n"
        "__global__ void k(int n) {\n#ifdef NEVER\n  //@ assert false;\n  n = 2;\n#endif\n  n = 1;\n}\n"
    )
    k = parse_text(src).kernels[0]
    assert k.requires == ()
    assert k.body.stmts == (AssignStmt(v("n"), SET, i(1), span=None),)  # type: ignore[arg-type]
    on = parse_text(src, options=ClangOptions(defines=("NEVER",))).kernels[0]
    assert [type(s).__name__ for s in on.body.stmts] == ["AnnotStmt", "AssignStmt", "AssignStmt"]


def test_macro_expanding_to_threadidx() -> None:
    (s,) = body("#define TID threadIdx.x\n__global__ void k(int *a) { a[TID] = 1; }\n").stmts
    assert s == AssignStmt(v("a", ThreadId()), SET, i(1), span=None)  # type: ignore[arg-type]


def test_annotation_on_define_line_is_a_contract() -> None:
    """The comment ends the directive (C removes comments first), so the annotation is the
    next kernel's contract, and the macro's value is just `3`."""
    spec = parse_text("#define N 3 //@ requires n == N;\n__global__ void k(int n) {}\n")
    assert [(d.name, d.value) for d in spec.defines] == [("N", i(3))]
    assert spec.kernels[0].requires[0].formula == b("==", v("n"), i(3))
    assert spec.kernels[0].requires[0].kind is ClauseKind.REQUIRES


def test_macro_value_spread_over_lines() -> None:
    spec = parse_text("#define K \\\n  (1 + \\\n   2)\n//@ requires n == K;\n__global__ void k(int n) {}\n")
    assert spec.kernels[0].requires[0].formula == b("==", v("n"), b("+", i(1), i(2)))


def test_macro_in_annotation_is_unsupported_with_its_definition_line() -> None:
    with pytest.raises(UnsupportedError) as info:
        parse_text("\n#define F(x) (x)\n//@ requires F(n) > 0;\n__global__ void k(int n) {}\n")
    assert info.value.span == Span("<string>", 3, 14)
    assert info.value.hint is not None and "defined at line 2" in info.value.hint
