"""Precedence and lookahead for the expression grammar (`expressions.py`): C's ten binary
levels parsed as one flat `operand (op operand)*` and grouped here by precedence in a parse
action (left-associative, comparisons chained in annotations), one regex for the one-token
primaries, and elements that choose by a regex peek at the text ahead (`Trailed`, `Chain`,
`Choice`). Each replaced a chain of pyparsing elements that were tried and failed after
every operand, which was most of an annotation's parse time.
"""

from __future__ import annotations

import re
from typing import Any, cast

import pyparsing as pp

from ..terms import Binary, BinOp, Term
from .context import error, token, track

Toks = pp.ParseResults


def fold_left(s: str, loc: int, toks: Toks | list[Any]) -> Term:
    items = list(toks)
    left: Term = items[0]
    for i in range(1, len(items), 2):
        op, _ = items[i]
        left = Binary(BinOp(op), left, items[i + 1], left.span)
    return left


def _chain(formula: bool) -> Any:
    def action(s: str, loc: int, toks: Toks | list[Any]) -> Term:
        items = list(toks)
        if len(items) <= 3:
            return fold_left(s, loc, toks)
        _, op2_loc = items[3]
        if not formula:
            raise error(
                "chained comparisons are only allowed in annotations",
                op2_loc,
                "in code, 'a < b < c' compares the 0/1 result of 'a < b' with c; write 'a < b && b < c'",
            )
        ops = [items[i][0] for i in range(1, len(items), 2)]
        if "!=" in ops:
            raise error("'!=' cannot be chained; write the comparisons joined with '&&'", op2_loc)
        if any(o in ("<", "<=") for o in ops) and any(o in (">", ">=") for o in ops):
            raise error("a chain of comparisons must go one way (all '<'/'<=' or all '>'/'>=')", op2_loc)
        out: Term | None = None
        for i in range(1, len(items), 2):
            left: Term = items[i - 1]
            cmp = Binary(BinOp(items[i][0]), left, items[i + 1], left.span)
            out = cmp if out is None else Binary(BinOp.AND, out, cmp, out.span)
        assert out is not None
        return out

    return action


# C's binary operators as one regex (longer spellings first where one is a prefix of another)
BINARY_OPS = "|".join(
    (
        r"\*(?!=)|/(?!=)|%(?!=)",
        r"\+(?![+=])|-(?![-=>])",
        r"<<(?!=)|>>(?!=)",
        r"<=(?!=)|>=|<(?![<=])|>(?![>=])",
        r"==(?![=>])|!=",
        r"&&|&(?![&=])",
        r"\^(?!=)",
        r"\|\||\|(?![|=])",
    )
)
# binding strength of each operator: higher binds tighter
_RANK: dict[str, int] = {
    "*": 9, "/": 9, "%": 9, "+": 8, "-": 8, "<<": 7, ">>": 7,
    "<=": 6, ">=": 6, "<": 6, ">": 6, "==": 5, "!=": 5,
    "&": 4, "^": 3, "|": 2, "&&": 1, "||": 0,
}  # fmt: skip
_CHAINED = frozenset({6, 5})


def by_precedence(formula: bool) -> Any:
    """Group `t0 op1 t1 op2 t2 ...` by C's precedence, left-associative, comparisons chained."""
    chain = _chain(formula)

    def group(items: list[Any], rank: int) -> Term:
        if len(items) == 1:
            return items[0]  # type: ignore[no-any-return]
        lowest = min(_RANK[items[i][0]] for i in range(1, len(items), 2))
        if lowest > rank:
            return group(items, lowest)
        parts: list[Any] = []
        start = 0
        for i in range(1, len(items), 2):
            if _RANK[items[i][0]] == rank:
                parts += [group(items[start:i], rank + 1), items[i]]
                start = i + 1
        parts.append(group(items[start:], rank + 1))
        return chain("", 0, parts) if rank in _CHAINED else fold_left("", 0, parts)

    def action(s: str, loc: int, toks: Toks) -> Term:
        return group(list(toks), 0)

    return action


_BLANKS = r"[ \t\r\n\f\v]*"


class _WithExtra(pp.ParseElementEnhance):
    """An element over `expr` that also parses `extra` (kept out of pyparsing's `exprs`
    lists, whose streamlining would flatten the two into one `And`)."""

    def __init__(self, expr: pp.ParserElement, extra: pp.ParserElement | None) -> None:
        super().__init__(expr)
        self.extra: pp.ParserElement = extra if extra is not None else pp.NoMatch()

    def recursive(self, extra: pp.ParserElement) -> _WithExtra:
        """Set `extra` after construction, when it names this element itself: a recursive
        rule without a `Forward`, one element fewer on each of its many uses."""
        self.extra = extra
        return self

    def streamline(self) -> pp.ParserElement:
        super().streamline()
        self.extra.streamline()
        return self

    def recurse(self) -> list[pp.ParserElement]:
        return [*super().recurse(), self.extra]


class Trailed(_WithExtra):
    """`base` then the optional `trailer`, tried only when a regex peek says it follows.

    For the optional trailers after every operand (`[i]`, `.f`, `@ t`, `? :`): one regex
    test instead of pyparsing trying, and failing, each alternative in turn; and one element
    where `base + Optional(trailer)` was three, on every operand of every annotation.
    """

    def __init__(self, base: pp.ParserElement, peek: str, trailer: pp.ParserElement | None = None) -> None:
        super().__init__(base, trailer)
        self._peek = re.compile(rf"{_BLANKS}(?:{peek})")  # from before the whitespace

    def parseImpl(self, instring: str, loc: int, do_actions: bool = True) -> Any:
        assert self.expr is not None
        loc, toks = self.expr._parse(instring, loc, do_actions, callPreParse=False)
        if self._peek.match(instring, loc):
            loc, more = self.extra._parse(instring, loc, do_actions)
            toks += more
        return loc, toks


class Chain(_WithExtra):
    """`operand (op operand)*`, the operator found by a regex peek before it is parsed and
    an operand required after it (a syntax error there, as `op - operand` would be)."""

    def __init__(self, operand: pp.ParserElement, op: pp.ParserElement, peek: str) -> None:
        super().__init__(operand, op)
        self._peek = re.compile(rf"{_BLANKS}(?:{peek})")

    def parseImpl(self, instring: str, loc: int, do_actions: bool = True) -> Any:
        assert self.expr is not None
        loc, toks = self.expr._parse(instring, loc, do_actions, callPreParse=False)
        while self._peek.match(instring, loc):
            loc, op = self.extra._parse(instring, loc, do_actions)
            try:
                loc, right = self.expr._parse(instring, loc, do_actions)
            except pp.ParseFatalException:
                raise
            except pp.ParseBaseException as exc:
                raise pp.ParseSyntaxException._from_exception(exc) from None
            toks += op
            toks += right
        return loc, toks


class Choice(_WithExtra):
    """`when` if a regex peek matches here, else `otherwise`: for a prefix operator or a
    postfix expression, decided by the next character instead of by a failed attempt."""

    def __init__(self, peek: str, when: pp.ParserElement | None, otherwise: pp.ParserElement) -> None:
        super().__init__(otherwise, when)
        self._peek = re.compile(rf"{_BLANKS}(?:{peek})")

    def parseImpl(self, instring: str, loc: int, do_actions: bool = True) -> Any:
        chosen = self.extra if self._peek.match(instring, loc) else self.expr
        assert chosen is not None
        return chosen._parse(instring, loc, do_actions)


class _Alternatives(pp.Regex):
    """A regex of named alternatives whose results hold only the groups that matched (the
    stock `Regex` sets every group of the pattern, matched or not, on every token)."""

    def parseImpl(self, instring: str, loc: int, do_actions: bool = True) -> Any:
        match = self.re_match(instring, loc)
        if not match:
            raise pp.ParseException(instring, loc, self.errmsg, self)
        toks = pp.ParseResults(match.group())
        for name, value in match.groupdict().items():
            if value is not None:
                toks[name] = value
        return match.end(), toks


def one_of_tokens(tokens: list[tuple[str, str, Any]]) -> pp.ParserElement:
    """One regex `(?P<kind>...)|...` whose match goes to the action of the kind that matched."""
    actions = {kind: action for kind, _, action in tokens}
    regex = "|".join(f"(?P<{kind}>{pattern})" for kind, pattern, _ in tokens)

    def dispatch(s: str, loc: int, toks: Toks) -> Any:
        track(s, loc, toks)  # for the position of "nested too deeply" (with '(' and prefixes)
        kind = next(k for k in cast(Any, toks).keys() if k in actions)  # noqa: SIM118 (ParseResults)
        return actions[kind](s, loc, toks)

    return _Alternatives(regex).set_parse_action(dispatch)


def op_token(regex: str) -> pp.ParserElement:
    return token(regex, "an operator")
