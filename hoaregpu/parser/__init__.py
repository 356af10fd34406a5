"""The parser: spec source text to the surface AST of `hoaregpu.syntax` / `hoaregpu.terms`.

Public API (each raises only `SpecError` / `UnsupportedError`, always with a position):

- `parse_file(path)` / `parse_text(text, path)`: a whole spec file to a `SpecFile`;
- `parse_formula(text, path)`: one annotation formula (`\\forall`, `==>`, `@`, ...) to a `Term`;
- `parse_expr(text, path)`: one program expression to a `Term`.

Pipeline: `preprocess` blanks comments and preprocessor lines while keeping every line and
column, and marks annotation comments; `#define` values are parsed as expressions; then
the pyparsing grammar (`grammar`, `expressions`) builds the AST, and `placement` attaches
annotation clauses. pyparsing failures become SpecErrors in `diagnostics`.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

import pyparsing as pp

from ..errors import Span, SpecError, UnsupportedError, register_source
from ..syntax import Define, KernelDef, SpecFile
from ..terms import Term
from . import grammar
from .context import ParseContext, parsing
from .diagnostics import to_spec_error
from .preprocess import LineMap, RawDefine, atomic_define_value, preprocess

__all__ = ["parse_expr", "parse_file", "parse_formula", "parse_text"]

T = TypeVar("T")

# Python frames per nesting level of the grammar are many; this covers ~100 nested parentheses.
_RECURSION_LIMIT = 20000


def parse_file(path: str) -> SpecFile:
    """Read and parse a spec file."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except UnicodeDecodeError as exc:
        raise SpecError(f"the file is not valid UTF-8 ({exc.reason})", Span(path, 1, 1)) from None
    except OSError as exc:
        raise SpecError(f"cannot read the file: {exc.strerror or exc}", Span(path, 1, 1)) from None
    return parse_text(text, path)


def parse_text(text: str, path: str = "<string>") -> SpecFile:
    """Parse a whole spec file given as text."""

    def run(c: ParseContext, pre_text: str, defines: tuple[Define, ...]) -> SpecFile:
        kernels: list[KernelDef] = list(_parse(grammar.FILE, pre_text, c))
        return SpecFile(path, tuple(kernels), defines)

    return _guarded(text, path, run)


def parse_formula(text: str, path: str = "<string>") -> Term:
    """Parse one annotation formula (the part after `requires`, without the ';')."""
    return _guarded(text, path, lambda c, pre, _: _one(grammar.FORMULA_ONLY, pre, c))


def parse_expr(text: str, path: str = "<string>") -> Term:
    """Parse one program expression."""
    return _guarded(text, path, lambda c, pre, _: _one(grammar.EXPR_ONLY, pre, c))


# ---------------------------------------------------------------- internals


def _one(element: pp.ParserElement, text: str, c: ParseContext) -> Term:
    result = _parse(element, text, c)
    term: Term = result[0]
    return term


def _parse(element: pp.ParserElement, text: str, c: ParseContext) -> pp.ParseResults:
    try:
        return element.parse_string(text, parse_all=True)
    except pp.ParseBaseException as exc:
        raise to_spec_error(exc, text, c) from None


def _defines(c: ParseContext, raws: tuple[RawDefine, ...]) -> tuple[Define, ...]:
    out: list[Define] = []
    for raw in raws:
        c.base = raw.value_offset
        c.furthest = 0
        value = _one(grammar.EXPR_ONLY, raw.value, c)
        c.base = 0
        if not atomic_define_value(raw.value):
            # C expands a macro as text: with `#define M 2+1`, `M * 2` is `2+1*2`. The value
            # is substituted as one subterm, so only values that parse the same either way pass.
            line, col = c.lines.linecol(raw.value_offset)
            raise UnsupportedError(
                f"'#define {raw.name}' with a value that is not one token or one parenthesised expression",
                Span(c.path, line, col),
                f"write '#define {raw.name} ({raw.value})' (C substitutes the text, not the expression)",
            )
        c.defines[raw.name] = (raw.name_offset, value)
        line, col = c.lines.linecol(raw.name_offset)
        out.append(Define(raw.name, value, Span(c.path, line, col)))
    c.furthest = 0
    return tuple(out)


@contextmanager
def _deep_recursion() -> Iterator[None]:
    old = sys.getrecursionlimit()
    if old < _RECURSION_LIMIT:
        sys.setrecursionlimit(_RECURSION_LIMIT)
    try:
        yield
    finally:
        sys.setrecursionlimit(old)


def _guarded(text: str, path: str, run: Callable[[ParseContext, str, tuple[Define, ...]], T]) -> T:
    """Preprocess, install a context, run, and turn every failure into a SpecError."""
    register_source(path, text)
    c = ParseContext(path, LineMap(text))
    try:
        pre = preprocess(text, path)
        c.lines = LineMap(pre.text)  # same lines; a `//@` line has one more char at its end
        with parsing(c), _deep_recursion():
            defines = _defines(c, pre.defines)
            return run(c, pre.text, defines)
    except SpecError:
        raise
    except RecursionError:
        raise SpecError(
            "the input is nested too deeply to parse", c.span(c.furthest), "split the expression"
        ) from None
    except Exception as exc:  # a bug in the parser: still report it with a position
        raise SpecError(
            f"internal parser error ({type(exc).__name__}: {exc}); please report it", c.span(c.furthest)
        ) from exc
