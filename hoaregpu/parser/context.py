"""Per-parse state shared by the grammar's parse actions, and small token helpers.

The grammar is built once at import; parse actions find the file being parsed (path,
line table, `#define`s seen so far) through `ctx()`. `parsing(...)` installs a context
for the duration of one parse (thread-local, so parses in different threads do not mix).
"""

from __future__ import annotations

import re
import sys
import threading
from bisect import bisect_right
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any

import pyparsing as pp

from ..errors import Span, SpecError, UnsupportedError
from ..terms import Term

# fmt: off
KEYWORDS = frozenset((
    "int", "unsigned", "signed", "bool", "size_t", "const", "void", "float", "double", "char",
    "long", "short", "half", "if", "else", "while", "for", "do", "return", "break", "continue",
    "goto", "switch", "case", "default", "struct", "union", "enum", "typedef", "sizeof", "static",
    "extern", "volatile", "register", "inline", "auto", "__shared__", "__global__", "__device__",
    "__host__", "__constant__", "__restrict__", "restrict", "__syncthreads", "threadIdx",
    "blockDim", "blockIdx", "gridDim", "warpSize", "true", "false", "template", "class",
    "namespace", "using",
))
# fmt: on

IDENT_RE = r"[A-Za-z_][A-Za-z_0-9]*"
_KW_ALT = "|".join(sorted(KEYWORDS, key=len, reverse=True))
IDENT_NOT_KW_RE = rf"(?!(?:{_KW_ALT})(?![A-Za-z_0-9])){IDENT_RE}"


class LineMap:
    """Offsets of a text to 1-based (line, column)."""

    def __init__(self, text: str) -> None:
        self.starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def linecol(self, offset: int) -> tuple[int, int]:
        i = bisect_right(self.starts, offset) - 1
        return i + 1, offset - self.starts[i] + 1


@dataclass
class ParseContext:
    path: str
    lines: LineMap
    base: int = 0  # offset of the parsed string inside the file (for `#define` values)
    defines: dict[str, tuple[int, Term]] = field(default_factory=dict)  # name -> (offset, value)
    furthest: int = 0  # furthest offset any expression/statement was tried at
    # `tid`/`ntid` mean threadIdx.x/blockDim.x in annotations unless the file declares a C
    # variable of that name, which then wins (C scoping, what the reader of the code expects)
    shadowed: frozenset[str] = frozenset()
    # macros annotations cannot use (function-like, a value that is no atomic expression,
    # defined twice or #undef'd): name -> (offset of the definition, why)
    unusable: dict[str, tuple[int, str]] = field(default_factory=dict)

    def span(self, loc: int) -> Span:
        line, col = self.lines.linecol(self.base + loc)
        return Span(self.path, line, col)

    def define_at(self, name: str, loc: int) -> Term | None:
        """The value of `name` if a `#define` of it precedes offset `loc`."""
        entry = self.defines.get(name)
        if entry is None or entry[0] >= self.base + loc:
            return None
        return entry[1]

    def check_macro(self, name: str, loc: int) -> None:
        """Raise if `name` at `loc` is a macro that annotations cannot use."""
        entry = self.unusable.get(name)
        if entry is None or entry[0] >= self.base + loc:
            return
        offset, why = entry
        raise UnsupportedError(
            f"macro '{name}' in an annotation",
            self.span(loc),
            f"'{name}' (defined at line {self.lines.linecol(offset)[0]}) {why}; annotations use"
            " object-like macros whose value is one token or one parenthesised expression",
        )

    def use_define(self, name: str, loc: int) -> Term | None:
        value = self.define_at(name, loc)
        if value is None:
            return None
        return replace(value, span=self.span(loc))


_LOCAL = threading.local()


def ctx() -> ParseContext:
    current: ParseContext | None = getattr(_LOCAL, "ctx", None)
    if current is None:  # pragma: no cover - grammar used outside parse_*()
        raise RuntimeError("hoaregpu.parser grammar used outside a parse")
    return current


@contextmanager
def parsing(context: ParseContext) -> Iterator[ParseContext]:
    saved = getattr(_LOCAL, "ctx", None)
    _LOCAL.ctx = context
    try:
        yield context
    finally:
        _LOCAL.ctx = saved


# Python frames per nesting level of the grammar are many; this covers ~100 nested parentheses.
_RECURSION_LIMIT = 20000


@contextmanager
def deep_recursion() -> Iterator[None]:
    """A recursion limit high enough for nested formulas (pyparsing recurses per level)."""
    old = sys.getrecursionlimit()
    if old < _RECURSION_LIMIT:
        sys.setrecursionlimit(_RECURSION_LIMIT)
    try:
        yield
    finally:
        sys.setrecursionlimit(old)


def error(message: str, loc: int, hint: str | None = None) -> SpecError:
    return SpecError(message, ctx().span(loc), hint)


# ---------------------------------------------------------------- token helpers


def kw(word: str) -> pp.ParserElement:
    """A keyword (not followed by an identifier character), suppressed from the results."""
    return pp.Regex(rf"{word}(?![A-Za-z_0-9])").set_name(f"'{word}'").suppress()


def punct(text: str, name: str | None = None) -> pp.ParserElement:
    return pp.Literal(text).set_name(name or f"'{text}'").suppress()


def token(regex: str, name: str) -> pp.ParserElement:
    """A token that yields `(text, loc)`, so actions can point at operators."""
    return pp.Regex(regex).set_name(name).set_parse_action(_with_loc)


def _with_loc(s: str, loc: int, toks: pp.ParseResults) -> tuple[str, int]:
    return (str(toks[0]), loc)


def fail(make: Any) -> Any:
    """A parse action that raises the SpecError `make(text, loc)` returns."""

    def action(s: str, loc: int, toks: pp.ParseResults) -> None:
        raise make(str(toks[0]) if len(toks) else "", loc)

    return action


def track(s: str, loc: int, toks: pp.ParseResults) -> None:
    c = ctx()
    if loc > c.furthest:
        c.furthest = loc


# ---------------------------------------------------------------- `#define` values

_SIGNED_TOKEN = re.compile(r"[+-]?[ \t]*[A-Za-z0-9_]+")


def atomic_define_value(value: str) -> bool:
    """One (optionally signed) token, or one expression wholly inside a pair of parentheses."""
    if _SIGNED_TOKEN.fullmatch(value):
        return True
    if not (value.startswith("(") and value.endswith(")")):
        return False
    depth = 0
    for i, ch in enumerate(value):
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth == 0 and i < len(value) - 1:
            return False  # the first '(' closes before the end: `(a) + (b)`
    return True
