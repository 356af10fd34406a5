"""The annotation language: pyparsing grammars for spec formulas and program expressions.

The C program itself is parsed by Clang (`hoaregpu.frontend`); this package parses what
is ours: the clauses inside `/*@ ... */` comments (`clauses.py`), their formulas and
expressions (`expressions.py`), where clauses may stand (`placement.py`), and positioned
error messages (`diagnostics.py`).

Public API (each raises only `SpecError` / `UnsupportedError`, always with a position):

- `parse_formula(text, path)`: one annotation formula (`\\forall`, `==>`, `@`, ...) to a `Term`;
- `parse_expr(text, path)`: one program expression to a `Term`.
"""

from __future__ import annotations

import pyparsing as pp

from ..errors import SpecError, register_source
from ..terms import Term
from .clauses import EXPR_ONLY, FORMULA_ONLY
from .context import LineMap, ParseContext, deep_recursion, parsing
from .diagnostics import to_spec_error

__all__ = ["parse_expr", "parse_formula"]


def parse_formula(text: str, path: str = "<string>") -> Term:
    """Parse one annotation formula (the part after `requires`, without the ';')."""
    return _parse(FORMULA_ONLY, text, path)


def parse_expr(text: str, path: str = "<string>") -> Term:
    """Parse one program expression."""
    return _parse(EXPR_ONLY, text, path)


def _parse(element: pp.ParserElement, text: str, path: str) -> Term:
    register_source(path, text)
    c = ParseContext(path, LineMap(text))
    try:
        with parsing(c), deep_recursion():
            term: Term = element.parse_string(text, parse_all=True)[0]
    except pp.ParseBaseException as exc:
        raise to_spec_error(exc, text, c) from None
    except RecursionError:
        raise SpecError(
            "the input is nested too deeply to parse", c.span(c.furthest), "split the expression"
        ) from None
    return term
