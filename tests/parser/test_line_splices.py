"""Line splices (C translation phase 2): a backslash that ends a line joins it with the next
one before comments are recognised. Clang does this for the program; the annotation reader
must agree with it and keep every position."""

from __future__ import annotations

import pytest

from hoaregpu.errors import Span, UnsupportedError
from hoaregpu.frontend import parse_text
from hoaregpu.syntax import AssignStmt
from hoaregpu.terms import Binary, BinOp, IntLit, Var


def cells(src: str) -> list[int]:
    """The indices `a[i]` assigned by the kernel's body, in order."""
    out = []
    for s in parse_text(src, "s.cu").kernels[0].body.stmts:
        assert isinstance(s, AssignStmt)
        (index,) = s.target.indices
        assert isinstance(index, IntLit)
        out.append(index.value)
    return out


def kernel(lines: str) -> str:
    return "__global__ void k(int *a) {\n  a[0] = 0;\n" + lines + "  a[9] = 9;\n}\n"


@pytest.mark.parametrize("ending", ["\\\n", "\\\r\n", "\\  \n", "\\\t\n"])
def test_line_comment_swallows_the_next_line(ending: str) -> None:
    """Also with CRLF and with blanks between the backslash and the newline (gcc and clang
    splice those too, with a warning): the spliced assignment is gone."""
    assert cells(kernel(f"  // note {ending}  a[1] = 1;\n  a[2] = 2;\n")) == [0, 2, 9]


def test_several_splices_chain() -> None:
    assert cells(kernel("  // a \\\n  a[1] = 1; \\\n  a[2] = 2;\n  a[3] = 3;\n")) == [0, 3, 9]


def test_backslash_not_at_line_end_does_not_splice() -> None:
    assert cells(kernel("  // a \\ b\n  a[1] = 1;\n")) == [0, 1, 9]


def test_block_comment_closed_across_a_splice() -> None:
    """`*\\` newline `/` is `*/` after splicing: the comment ends there."""
    assert cells(kernel("  /* x *\\\n/ a[1] = 1;\n")) == [0, 1, 9]


def test_comment_start_split_by_a_splice() -> None:
    """`/\\` newline `/` starts a `//` comment."""
    assert cells(kernel("  a[1] = 1; /\\\n/ a[2] = 2;\n  a[3] = 3;\n")) == [0, 1, 3, 9]


def test_positions_after_a_splice() -> None:
    k = parse_text(kernel("  // c \\\n  a[1] = 1;\n  a[2] = 2;\n"), "s.cu").kernels[0]
    assert k.body.stmts[1].span == Span("s.cu", 5, 3)


def test_line_annotation_continued_keeps_columns() -> None:
    k = parse_text("//@ requires n == \\\n  1;\n__global__ void k(int n) {}\n", "s.cu").kernels[0]
    (req,) = k.requires
    assert req.formula == Binary(BinOp.EQ, Var("n", ()), IntLit(1))
    assert req.formula.right.span == Span("s.cu", 2, 3)  # type: ignore[attr-defined]


def test_comment_inside_annotation_swallows_the_next_line() -> None:
    k = parse_text(
        "/*@ requires a; // note \\\n    requires b;\n    requires c; */\n"
        "__global__ void k(int a, int b, int c) {}\n"
    ).kernels[0]
    assert [c.formula for c in k.requires] == [Var("a", ()), Var("c", ())]
    k2 = parse_text("//@ requires a; // note \\\nrequires b;\n__global__ void k(int a, int b) {}\n").kernels[
        0
    ]
    assert [c.formula for c in k2.requires] == [Var("a", ())]


def test_splice_inside_an_annotation_token_is_unsupported() -> None:
    with pytest.raises(UnsupportedError, match="joining two tokens") as info:
        parse_text("//@ ens\\\nures true;\n__global__ void k() {}\n", "s.cu")
    assert info.value.span == Span("s.cu", 1, 8)


@pytest.mark.parametrize(
    "text", ["x;\n/\\\n/@ assert true;\n", "\n/\\\n*@ requires false; */\n", "\n/*@ requires false; *\\\n/\n"]
)
def test_splice_inside_an_annotation_delimiter_is_unsupported(text: str) -> None:
    """C would still read an annotation there; hoaregpu must not silently drop it."""
    src = text.replace("x;\n", "\n") + "__global__ void k() {}\n"
    with pytest.raises(UnsupportedError, match="annotation delimiter") as info:
        parse_text(src, "s.cu")
    assert info.value.span == Span("s.cu", 2, 1)


def test_directive_comment_spliced_with_the_next_line() -> None:
    """A `#define` whose trailing comment is continued: the next line is comment too, and
    the macro's value is what precedes the comment."""
    spec = parse_text("#define N 4 // four \\\nint x;\n//@ requires n == N;\n__global__ void k(int n) {}\n")
    assert [(d.name, d.value) for d in spec.defines] == [("N", IntLit(4))]
    assert spec.kernels[0].requires[0].formula == Binary(BinOp.EQ, Var("n", ()), IntLit(4))
