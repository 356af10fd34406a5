"""Turn a pyparsing failure into a SpecError in plain words, at the offending token.

pyparsing reports "Expected <name>" at a location; the grammar names its elements in
words ("an expression", "';' at the end of the clause"), and here we add what came before
("expected an expression after '=='"). A missing ';' is reported right after the previous
token, as C compilers do, so it points at the clause's own line. The text parsed is one
annotation body (or one formula), so running out of text is its end.
"""

from __future__ import annotations

import re

import pyparsing as pp

from ..errors import SpecError
from .context import ParseContext

# fmt: off
_OPERATORS = sorted(
    ["<==>", "==>", "<<=", ">>=", "++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<",
     ">>", "<=", ">=", "==", "!=", "&&", "||", "->", "(", ")", "[", "]", "{", "}", ";", ",", "?",
     ":", "+", "-", "*", "/", "%", "<", ">", "!", "=", "&", "|", "^", "~", "@", ".", "#", "\\"],
    key=len,
    reverse=True,
)
# fmt: on
_WORD_END = re.compile(r"[A-Za-z_0-9]+$")
_WORD_START = re.compile(r"\\?[A-Za-z_0-9]+")


def previous_token(text: str, loc: int) -> tuple[str, int] | None:
    """The token just before offset `loc` (skipping blanks) and the offset just after it."""
    end = loc
    while end > 0 and text[end - 1].isspace():
        end -= 1
    if end == 0:
        return None
    last = text[end - 1]
    m = _WORD_END.search(text, max(0, end - 200), end)
    if m is not None:
        start = m.start()
        if start > 0 and text[start - 1] == "\\":
            start -= 1
        return (text[start:end], end)
    for op in _OPERATORS:
        if text.startswith(op, end - len(op)):
            return (op, end)
    return (last, end)


def found_token(text: str, loc: int) -> str:
    if loc >= len(text):
        return "the end of the annotation"
    ch = text[loc]
    m = _WORD_START.match(text, loc)
    if m is not None:
        return f"'{m.group(0)}'"
    for op in _OPERATORS:
        if text.startswith(op, loc):
            return f"'{op}'"
    return f"'{ch}'" if ch.isprintable() else f"character {ch!r}"


def _looks_generated(what: str) -> bool:
    return any(marker in what for marker in ("{", "Re:", "W:(", "|", "Forward", "ZeroOrMore", "Empty"))


def to_spec_error(exc: pp.ParseBaseException, text: str, c: ParseContext) -> SpecError:
    """`text` is the string that was parsed (offsets are into it)."""
    loc = min(max(exc.loc, 0), len(text))
    msg = str(exc.msg)
    what = msg[len("Expected ") :] if msg.startswith("Expected ") else msg
    found = found_token(text, loc)
    prev = previous_token(text, loc)
    if not what or _looks_generated(what):
        return SpecError(f"unexpected {found}", c.span(loc))
    message = f"expected {what}"
    if prev is not None and " after " not in what and " at the end" not in what:
        message += f" after '{prev[0]}'"
    if prev is not None and (what.startswith("';'") or loc >= len(text.rstrip())):
        # point right after the previous token (C compilers do the same)
        return SpecError(message, c.span(prev[1]))
    if found.startswith("the end"):
        message += f", found {found}"
    return SpecError(message, c.span(loc))
