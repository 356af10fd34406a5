"""Preprocessing keeps every line and column; annotation comments become marked regions."""

from __future__ import annotations

import pytest

from hoaregpu.errors import Span, SpecError
from hoaregpu.frontend import parse_text
from hoaregpu.parser.preprocess import ANN_CLOSE, ANN_OPEN, preprocess


def test_comments_become_blanks_keeping_lines() -> None:
    src = "a /* x\ny */ b // c\nd\n"
    out = preprocess(src, "p").text
    assert out == "a     \n     b     \nd\n"


def test_annotation_markers() -> None:
    out = preprocess("/*@ requires x;\n  @ ensures y; @*/\n//@ assert z;\nq\n", "p").text
    assert out == (
        f"{ANN_OPEN}   requires x;\n    ensures y;   {ANN_CLOSE}\n{ANN_OPEN}   assert z;{ANN_CLOSE}\nq\n"
    )


def test_lines_and_columns_survive() -> None:
    src = "/* c */ /*@ requires a; */ //@ requires b;\n// x\n   /* y */ x;\n"
    out = preprocess(src, "p").text
    assert out.count("\n") == src.count("\n")
    assert out.split("\n")[2] == "           x;"


def test_strings_hide_comment_starts() -> None:
    out = preprocess('x = "// not a comment";\n', "p").text
    assert out == 'x = "// not a comment";\n'


def test_defines_recorded_and_blanked() -> None:
    pre = preprocess("#include <a.h>\n#define N 4 /* four */\nN\n", "p")
    assert pre.text == " " * 14 + "\n" + " " * 22 + "\nN\n"
    (d,) = pre.defines
    assert (d.name, d.value, d.name_offset, d.value_offset) == ("N", "4", 23, 25)


def test_crlf_line_endings() -> None:
    src = "//@ requires n > 0;\r\n__global__ void k(int n) {\r\n  n = 1;\r\n}\r\n"
    k = parse_text(src, "crlf.cu").kernels[0]
    assert k.requires[0].span == Span("crlf.cu", 1, 5)
    assert k.body.stmts[0].span == Span("crlf.cu", 3, 3)


def test_annotation_after_code_on_same_line() -> None:
    k = parse_text("__global__ void k() { x = 1; //@ assert x == 1;\n  y = 2; }\n", "s.cu").kernels[0]
    assert [type(s).__name__ for s in k.body.stmts] == ["AssignStmt", "AnnotStmt", "AssignStmt"]
    assert k.body.stmts[1].span == Span("s.cu", 1, 34)
    assert k.body.stmts[2].span == Span("s.cu", 2, 3)


def test_hash_inside_annotation_is_not_a_directive() -> None:
    with pytest.raises(SpecError) as info:
        parse_text("/*@\n#define X 1\n*/\n__global__ void k() {}\n")
    assert info.value.span.line == 2


def test_annotation_on_define_line() -> None:
    with pytest.raises(SpecError, match="cannot share a line"):
        parse_text("#define N 3 //@ requires true;\n")
