"""Preprocessing that keeps every line and column where it was.

Line splices (a backslash ending a line) are applied before comments are recognised, as
in C's translation phase 2: a `//` comment ending in `\\` swallows the next line.
Ordinary comments become blanks (their newlines stay). An annotation comment
(`/*@ ... */` or `//@ ...`) becomes an annotation region: its opening delimiter turns into
`ANN_OPEN` followed by blanks and its end into `ANN_CLOSE`, so the grammar sees them as
tokens. For `//@` the closing marker is inserted just before the newline, after every
token of that line, so no column moves. Inside `/*@ ... */` a leading `@` on a
continuation line and the `@` of `@*/` are blanked (ACSL style), and `//` starts a
comment that runs to the end of the line.

Preprocessor lines: `#include` is skipped, `#define NAME value` (object-like, an integer
expression) is recorded and blanked, anything else is unsupported.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass

from ..errors import Span, SpecError, UnsupportedError

ANN_OPEN = "\x01"
ANN_CLOSE = "\x02"


class LineMap:
    """Offsets of a text to 1-based (line, column)."""

    def __init__(self, text: str) -> None:
        self.starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def linecol(self, offset: int) -> tuple[int, int]:
        i = bisect_right(self.starts, offset) - 1
        return i + 1, offset - self.starts[i] + 1


@dataclass(frozen=True)
class RawDefine:
    """A `#define NAME value` line: the value's text and where it starts (offset in the text)."""

    name: str
    name_offset: int
    value: str
    value_offset: int


@dataclass(frozen=True)
class Preprocessed:
    text: str  # same lines as the source; comments blanked, annotation markers in place
    defines: tuple[RawDefine, ...]


def _blank(chars: list[str], start: int, end: int) -> None:
    for i in range(start, end):
        if chars[i] != "\n":
            chars[i] = " "


# A line splice (C translation phase 2): a backslash that ends a line joins it with the
# next one, before comments are recognised, so `// text \` continues the comment on the
# next line. Like gcc and clang (which nvcc hands the host code to), blanks between the
# backslash and the newline are allowed (they warn); `\r` covers CRLF files.
_SPLICE = re.compile(r"\\[ \t\r]*\n")


def _skip_splices(src: str, i: int) -> int:
    """The offset of the next character of the spliced text at or after `i`."""
    while (m := _SPLICE.match(src, i)) is not None:
        i = m.end()
    return i


def _line_end(src: str, i: int) -> int:
    """The newline that ends the (spliced) line holding offset `i`, or len(src)."""
    j = i
    while True:
        nl = src.find("\n", j)
        if nl < 0:
            return len(src)
        k = nl - 1
        while k >= i and src[k] in " \t\r":
            k -= 1
        if k < i or src[k] != "\\":
            return nl
        j = nl + 1


def _blank_splices(src: str, start: int, end: int, path: str, lines: LineMap) -> list[str]:
    """src[start:end] (annotation text) with each line splice blanked, newlines kept, so
    every token stays at its line and column. A splice that joins two pieces of one token
    (`ens\\` + newline + `ures`) cannot be blanked without splitting it: unsupported."""
    body = list(src[start:end])
    for m in _SPLICE.finditer(src, start, end):
        before = src[m.start() - 1] if m.start() > start else " "
        after = src[m.end()] if m.end() < end else " "
        if not before.isspace() and not after.isspace():
            line, col = lines.linecol(m.start())
            raise UnsupportedError(
                "a line splice ('\\' at the end of a line) joining two tokens in an annotation",
                Span(path, line, col),
                "put a blank before the '\\' or start the next line with a blank",
            )
        _blank(body, m.start() - start, m.end() - start)
    return body


def _strip_comments(src: str, path: str, lines: LineMap) -> str:
    """Pass 1: comments out, annotation markers in (string and char literals left alone).

    Comments are recognised in the spliced text (see `_SPLICE`): a `//` comment runs to
    the end of its spliced line, and `*\\` + newline + `/` closes a block comment."""

    def span(off: int) -> Span:
        line, col = lines.linecol(off)
        return Span(path, line, col)

    def unsupported_split(off: int) -> UnsupportedError:
        return UnsupportedError(
            "a line splice ('\\' at the end of a line) inside an annotation delimiter",
            span(off),
            "write '/*@', '//@' and '*/' without a line break",
        )

    out: list[str] = []
    i, n = 0, len(src)
    while i < n:
        c = src[i]
        if c in (ANN_OPEN, ANN_CLOSE):
            raise SpecError("unexpected control character in the source", span(i))
        second = _skip_splices(src, i + 1) if c == "/" else i + 1
        if c == "/" and src.startswith("*", second):
            end = _block_end(src, second + 1)
            if end < 0:
                raise SpecError("unterminated comment: '/*' has no closing '*/'", span(i))
            at = _skip_splices(src, second + 1)
            if src.startswith("@", at):
                close = _skip_splices(src, end + 1)
                if second != i + 1 or at != second + 1 or close != end + 1:
                    raise unsupported_split(i)
                out.append(_annotation_block(src, i, end, path, lines))
                i = end + 2
            else:
                close = _skip_splices(src, end + 1)
                out.append("".join("\n" if ch == "\n" else " " for ch in src[i : close + 1]))
                i = close + 1
        elif c == "/" and src.startswith("/", second):
            end = _line_end(src, i)
            at = _skip_splices(src, second + 1)
            if src.startswith("@", at):
                if second != i + 1 or at != second + 1:
                    raise unsupported_split(i)
                body = _blank_splices(src, i + 3, end, path, lines)
                inner = "".join(body)
                cut = inner.find("//")
                if cut >= 0:
                    _blank(body, cut, len(body))
                for k, ch in enumerate(body):
                    if ch == "\r":
                        body[k] = " "
                out.append(ANN_OPEN + "  " + "".join(body) + ANN_CLOSE)
            else:
                out.append("".join("\n" if ch == "\n" else " " for ch in src[i:end]))
            i = end
        elif c in "\"'":
            j = i + 1
            while j < n and src[j] != c and src[j] != "\n":
                j += 2 if src[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(src[i:j])
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def _block_end(src: str, i: int) -> int:
    """The '*' of the `*/` that closes a block comment whose text starts at `i` (-1: none);
    the two characters may be split by line splices."""
    while True:
        star = src.find("*", i)
        if star < 0:
            return -1
        if src.startswith("/", _skip_splices(src, star + 1)):
            return star
        i = star + 1


def _annotation_block(src: str, start: int, end: int, path: str, lines: LineMap) -> str:
    """`/*@ ... */` from `start` (the '/') to `end` (the '*' of the closing '*/')."""
    body = _blank_splices(src, start + 3, end, path, lines)
    # `@` before the closing `*/`
    if body and body[-1] == "@":
        body[-1] = " "
    # leading `@` on continuation lines
    at_line_start = False
    k = 0
    while k < len(body):
        ch = body[k]
        if ch == "\n":
            at_line_start = True
        elif at_line_start and ch == "@":
            body[k] = " "
            at_line_start = False
        elif not ch.isspace():
            at_line_start = False
        # a `//` comment inside the annotation runs to the end of the (spliced) line
        if ch == "/" and k + 1 < len(body) and body[k + 1] == "/":
            stop = min(_line_end(src, start + 3 + k), end) - (start + 3)
            _blank(body, k, stop)
            k = stop
            continue
        k += 1
    return ANN_OPEN + "  " + "".join(body) + " " + ANN_CLOSE


_DEFINE = re.compile(r"define[ \t]+([A-Za-z_][A-Za-z_0-9]*)")


def preprocess(src: str, path: str) -> Preprocessed:
    """Comments and preprocessor lines out, positions kept (see the module docstring)."""
    lines = LineMap(src)
    text = _strip_comments(src, path, lines)
    chars = list(text)
    defines: list[RawDefine] = []
    seen: dict[str, int] = {}
    in_annot = False
    offset = 0
    for raw_line in text.split("\n"):
        line_start = offset
        offset += len(raw_line) + 1
        stripped = raw_line.lstrip(" \t\f\v\r")
        if stripped.startswith("#") and not in_annot:
            hash_at = line_start + len(raw_line) - len(stripped)
            if ANN_OPEN in raw_line or ANN_CLOSE in raw_line:
                ln, col = lines.linecol(hash_at)
                raise SpecError("an annotation comment cannot share a line with '#'", Span(path, ln, col))
            _directive(stripped, hash_at, path, lines, defines, seen)
            _blank(chars, line_start, line_start + len(raw_line))
        for ch in raw_line:
            if ch == ANN_OPEN:
                in_annot = True
            elif ch == ANN_CLOSE:
                in_annot = False
    return Preprocessed("".join(chars), tuple(defines))


def _directive(
    line: str,
    hash_at: int,
    path: str,
    lines: LineMap,
    defines: list[RawDefine],
    seen: dict[str, int],
) -> None:
    def span(off: int) -> Span:
        ln, col = lines.linecol(off)
        return Span(path, ln, col)

    body = line[1:].lstrip(" \t")
    word_at = hash_at + len(line) - len(body)
    if line.rstrip().endswith("\\"):
        raise UnsupportedError(
            "preprocessor line continued with '\\'", span(hash_at), "write the directive on one line"
        )
    if re.match(r"include\b", body):
        return
    m = _DEFINE.match(body)
    if m is None:
        word = re.match(r"[A-Za-z_]*", body)
        name = word.group(0) if word and word.group(0) else body.strip()[:20]
        raise UnsupportedError(
            f"preprocessor directive '#{name}'",
            span(hash_at),
            "only '#include' (skipped) and '#define NAME value' with an integer value are supported",
        )
    name = m.group(1)
    name_at = word_at + m.start(1)
    rest = body[m.end() :]
    if rest.startswith("("):
        raise UnsupportedError(
            f"function-like macro '{name}(...)'",
            span(name_at),
            "only '#define NAME value' with an integer value is supported",
        )
    value = rest.strip()
    if not value:
        raise UnsupportedError(
            f"'#define {name}' without a value",
            span(name_at),
            "only '#define NAME value' with an integer value is supported",
        )
    if name in seen:
        ln, _ = lines.linecol(seen[name])
        raise SpecError(f"'{name}' is defined twice (first on line {ln})", span(name_at))
    seen[name] = name_at
    value_at = word_at + m.end() + (len(rest) - len(rest.lstrip()))
    defines.append(RawDefine(name, name_at, value, value_at))


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
