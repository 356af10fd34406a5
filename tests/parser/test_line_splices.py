"""Line splices (C translation phase 2) in the preprocessor: a backslash that ends a line
joins it with the next one before comments are recognised. Positions must not move."""

from __future__ import annotations

import pytest

from hoaregpu.errors import Span, UnsupportedError
from hoaregpu.parser.preprocess import ANN_CLOSE, ANN_OPEN, preprocess


def test_line_comment_swallows_the_next_line() -> None:
    src = "a = 1;\n// c \\\nb = 5;\nc = 2;\n"
    out = preprocess(src, "p").text
    assert out == "a = 1;\n" + " " * 6 + "\n" + " " * 6 + "\nc = 2;\n"


@pytest.mark.parametrize("ending", ["\\\n", "\\\r\n", "\\  \n", "\\\t\r\n"])
def test_splice_variants_gcc_and_clang_accept(ending: str) -> None:
    """CRLF, and blanks between the backslash and the newline (gcc and clang splice those
    too, with a warning): the next line is part of the comment either way."""
    src = f"// c {ending}b = 5;\nc;\n"
    out = preprocess(src, "p").text
    assert "b" not in out and "5" not in out
    assert out.endswith("\nc;\n") and out.count("\n") == src.count("\n")


def test_several_splices_chain() -> None:
    out = preprocess("// a \\\n b \\\n c\nd;\n", "p").text
    assert out.split("\n") == [" " * 6, " " * 4, " " * 2, "d;", ""]


def test_backslash_not_at_line_end_does_not_splice() -> None:
    out = preprocess("// a \\ b\nc;\n", "p").text
    assert out == " " * 8 + "\nc;\n"


def test_block_comment_closed_across_a_splice() -> None:
    """`*\\` newline `/` is `*/` after splicing: the comment ends there."""
    out = preprocess("/* x *\\\n/ y;\n", "p").text
    assert out == " " * 7 + "\n  y;\n"


def test_comment_start_split_by_a_splice() -> None:
    """`/\\` newline `/` starts a `//` comment."""
    out = preprocess("x; /\\\n/ y;\nz;\n", "p").text
    assert out == "x;   \n    \nz;\n"


def test_line_annotation_continued_keeps_columns() -> None:
    src = "//@ assert x == \\\n  1;\ny;\n"
    out = preprocess(src, "p").text
    assert out == f"{ANN_OPEN}   assert x ==  \n  1;{ANN_CLOSE}\ny;\n"


def test_comment_inside_annotation_swallows_the_next_line() -> None:
    src = "/*@ requires a; // note \\\n    requires b;\n    requires c; */\n"
    out = preprocess(src, "p").text
    lines = out.split("\n")
    assert "requires b" not in out
    assert lines[2] == "    requires c;  " + ANN_CLOSE
    src2 = "//@ assert a; // note \\\nassert b;\nq;\n"
    out2 = preprocess(src2, "p").text
    assert "b" not in out2 and out2.endswith(f"{ANN_CLOSE}\nq;\n")


def test_splice_inside_an_annotation_token_is_unsupported() -> None:
    with pytest.raises(UnsupportedError) as info:
        preprocess("//@ ens\\\nures true;\n", "s.cu")
    assert info.value.span == Span("s.cu", 1, 8)


def test_splice_inside_an_annotation_delimiter_is_unsupported() -> None:
    with pytest.raises(UnsupportedError) as info:
        preprocess("x;\n/\\\n/@ assert true;\n", "s.cu")
    assert info.value.span == Span("s.cu", 2, 1)


def test_directive_comment_spliced_with_the_next_line() -> None:
    """A `#define` whose trailing comment is continued: the next line is comment too."""
    pre = preprocess("#define N 4 // four \\\nint x;\ny;\n", "p")
    assert [d.name for d in pre.defines] == ["N"]
    assert pre.text.split("\n")[1].strip() == ""
    assert pre.text.split("\n")[2] == "y;"
