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

from ..errors import Span, UnsupportedError
from ..parser.clauses import EXPR_ONLY, parse_clauses
from ..parser.context import ParseContext, parsing
from ..parser.placement import Annot
from ..parser.preprocess import atomic_define_value
from ..terms import Term, Var, subterms
from . import clang

_SPLICE = re.compile(r"\\\r?\n")
_CONTINUATION_AT = re.compile(r"(^|\n)([ \t]*)@")


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
    body = _CONTINUATION_AT.sub(lambda m: m.group(1) + m.group(2) + " ", body)
    return 3, body


def read_annotations(
    tu: Any, path: str, text: str, c: ParseContext, unusable: dict[str, Span]
) -> list[PlacedAnnot]:
    """The file's annotation comments, parsed, in source order (offsets in characters)."""
    chars = clang.CharOffsets(text)
    skipped = [(chars(a), chars(b)) for a, b in clang.skipped_ranges(tu, path)]
    out: list[PlacedAnnot] = []
    for byte_offset, spelling in clang.comments(tu, path, chars.size):
        offset = chars(byte_offset)
        if any(a <= offset < b for a, b in skipped):
            continue
        found = _body(spelling)
        if found is None:
            continue
        rel, body = found
        c.base = offset + rel
        c.furthest = 0
        with parsing(c):
            clauses = parse_clauses(body, c)
        c.base = 0
        for clause in clauses:
            _check_macros(clause.formula, unusable)
        out.append(PlacedAnnot(offset, offset + len(spelling), Annot(tuple(clauses), c.span(offset))))
    return out


def _check_macros(formula: Term, unusable: dict[str, Span]) -> None:
    for t in subterms(formula):
        if isinstance(t, Var) and t.name in unusable and t.span is not None:
            raise UnsupportedError(
                f"macro '{t.name}' in an annotation",
                t.span,
                f"'{t.name}' (defined at line {unusable[t.name].line}) is function-like or its value is not"
                " one token or one parenthesised expression; C substitutes text, annotations substitute"
                " expressions",
            )


def define_table(tu: Any, path: str, text: str, c: ParseContext) -> dict[str, Span]:
    """Fill `c.defines` with the file's macros usable in annotations; return the others
    (function-like, or values that are no atomic expression) with their positions."""
    unusable: dict[str, Span] = {}
    chars = clang.CharOffsets(text)
    for name, byte_offset, _value, function_like in clang.macro_definitions(tu, path):
        name_offset = chars(byte_offset)
        span = c.span(name_offset)
        raw = _macro_value_text(text, name_offset, name)
        if function_like or raw is None or not atomic_define_value(raw[1]):
            unusable[name] = span
            c.defines.pop(name, None)
            continue
        value_offset, value_text = raw
        term = _parse_value(value_text, value_offset, c)
        if term is None:
            unusable[name] = span
            c.defines.pop(name, None)
            continue
        c.defines[name] = (name_offset, term)
        unusable.pop(name, None)
    return unusable


def _macro_value_text(text: str, name_offset: int, name: str) -> tuple[int, str] | None:
    """The replacement text of `#define NAME value` in the file (splices blanked)."""
    line_end = name_offset
    while True:
        nl = text.find("\n", line_end)
        if nl == -1:
            nl = len(text)
        if nl > 0 and text[nl - 1] == "\\":
            line_end = nl + 1
            continue
        break
    start = name_offset + len(name)
    raw = _SPLICE.sub(_blank, text[start:nl])
    stripped = raw.strip()
    if not stripped:
        return None
    return start + (len(raw) - len(raw.lstrip())), stripped


def _parse_value(value: str, offset: int, c: ParseContext) -> Term | None:
    import pyparsing as pp

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
