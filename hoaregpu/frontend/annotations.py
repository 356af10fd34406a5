"""Annotation comments (`/*@ ... */`, `//@ ...`) found by Clang's lexer, parsed by our grammar.

Clang's lexer finds the comments, so C's rules hold for them (a backslash-newline splices
a `//` comment with the next line; comments inside `#if 0` do not count). Each annotation
body is parsed by the pyparsing clause grammar at its offset in the file. Object-like
macros defined in the file may be used in annotations when their value is one token or
one parenthesised expression (C substitutes text, and `#define M 2+1` would make `M * 2`
mean `2+1*2`; the annotation grammar substitutes the value as one subterm).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import pyparsing as pp

from ..errors import SpecError, UnsupportedError
from ..parser.clauses import EXPR_ONLY, parse_clauses
from ..parser.context import ParseContext, atomic_define_value, deep_recursion, parsing
from ..parser.placement import Annot
from ..terms import Term
from . import clang

_SPLICE = re.compile(r"\\\r?\n")
_CONTINUATION_AT = re.compile(r"(^|\n)([ \t]*)@")
_LINE_COMMENT = re.compile(r"//[^\n]*")


@dataclass(frozen=True)
class PlacedAnnot:
    start: int  # file offsets of the whole comment
    end: int
    annot: Annot


def _blank(match: re.Match[str]) -> str:
    return " " * len(match.group(0))


def _body(spelling: str) -> tuple[int, str] | None:
    """The annotation body of a comment and its offset inside the comment, or None."""
    if spelling.startswith("/*@"):
        body = spelling[3:-2]
        stripped = body.rstrip()
        if stripped.endswith("@"):  # `@*/`
            body = body[: len(stripped) - 1] + " " + body[len(stripped) :]
    elif spelling.startswith("//@"):
        body = spelling[3:]
    else:
        return None
    body = _SPLICE.sub(_blank, body)
    # a `//` comment inside an annotation runs to the end of its line (splices are blanked
    # above, so a continued comment swallows the next line, as in C)
    body = _LINE_COMMENT.sub(_blank, body)
    body = _CONTINUATION_AT.sub(lambda m: m.group(1) + m.group(2) + " ", body)
    return 3, body


def read_annotations(lexed: clang.Lexed, c: ParseContext) -> list[PlacedAnnot]:
    """The file's annotation comments, parsed, in source order (offsets in characters)."""
    out: list[PlacedAnnot] = []
    for offset, spelling in lexed.comments:
        if lexed.is_skipped(offset):
            continue
        _check_splices(spelling, offset, c)
        found = _body(spelling)
        if found is None:
            continue
        rel, body = found
        c.base = offset + rel
        c.furthest = 0
        try:
            with parsing(c), deep_recursion():
                clauses = parse_clauses(body, c)
        except RecursionError:
            raise SpecError(
                "the annotation is nested too deeply to parse", c.span(c.furthest), "split the formula"
            ) from None
        finally:
            c.base = 0
        out.append(PlacedAnnot(offset, offset + len(spelling), Annot(tuple(clauses), c.span(offset))))
    return out


def _check_splices(spelling: str, offset: int, c: ParseContext) -> None:
    """Line splices that the annotation reader cannot blank without changing what the text
    means: inside `/*@`, `//@`, `*/` (C would still see an annotation), or inside a token."""
    joined = _SPLICE.sub("", spelling)
    if not joined.startswith(("/*@", "//@")):
        return
    if not spelling.startswith(("/*@", "//@")) or (spelling.startswith("/*") and not spelling.endswith("*/")):
        raise UnsupportedError(
            "a line splice ('\\' at the end of a line) inside an annotation delimiter",
            c.span(offset),
            "write '/*@', '//@' and '*/' without a line break",
        )
    for m in _SPLICE.finditer(spelling):
        before = spelling[m.start() - 1] if m.start() > 0 else " "
        after = spelling[m.end()] if m.end() < len(spelling) else " "
        if not before.isspace() and not after.isspace():
            raise UnsupportedError(
                "a line splice ('\\' at the end of a line) joining two tokens in an annotation",
                c.span(offset + m.start()),
                "put a blank before the '\\' or start the next line with a blank",
            )


def define_table(
    tu: Any, path: str, text: str, chars: clang.CharOffsets, lexed: clang.Lexed, c: ParseContext
) -> None:
    """Fill `c.defines` with the file's macros usable in annotations and `c.unusable` with
    the others, each at the offset of its name."""
    undefined = lexed.undefs
    comments = [(o, o + len(spelling)) for o, spelling in lexed.comments]
    for name, byte_offset, byte_end, function_like in clang.macro_definitions(tu, path):
        name_offset = chars(byte_offset)
        raw = _macro_value_text(text, name_offset + len(name), chars(byte_end), comments)
        why = None
        if name in c.defines or name in c.unusable or name in undefined:
            # annotations see one value per macro, wherever they stand
            why = "is defined more than once or '#undef'd"
        elif function_like:
            why = "is function-like"
        elif raw is None or not atomic_define_value(raw[1]):
            why = "has a value that is not one token or one parenthesised expression"
        term = _parse_value(raw[1], raw[0], c) if why is None and raw is not None else None
        if term is None:
            # from the first definition on (earlier ones are no longer usable either)
            offsets = [name_offset]
            if name in c.defines:
                offsets.append(c.defines.pop(name)[0])
            if name in c.unusable:
                offsets.append(c.unusable[name][0])
            c.unusable[name] = (min(offsets), why or "has a value that is not an integer expression")
            continue
        c.defines[name] = (name_offset, term)


def _macro_value_text(
    text: str, start: int, end: int, comments: list[tuple[int, int]]
) -> tuple[int, str] | None:
    """The replacement text of a macro, text[start:end], with comments and line splices
    blanked (C removes both before it expands macros), and where it starts."""
    chars = list(text[start:end])
    for a, b in comments:
        for i in range(max(a, start), min(b, end)):
            chars[i - start] = " "
    raw = _SPLICE.sub(_blank, "".join(chars))
    stripped = raw.strip()
    if not stripped:
        return None
    return start + (len(raw) - len(raw.lstrip())), stripped


def _parse_value(value: str, offset: int, c: ParseContext) -> Term | None:
    c.base = offset
    try:
        with parsing(c):
            result = EXPR_ONLY.parse_string(value, parse_all=True)
    except (pp.ParseBaseException, UnsupportedError):
        return None
    finally:
        c.base = 0
    term: Term = result[0]
    return term
