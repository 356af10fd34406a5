"""The grammar of ACSL's aggregates (spec-language §5): `\\sum(lo, hi, \\lambda int k; e)`,
`\\product`, `\\numof`, `\\max`, `\\min`, and the two-argument `\\max(a, b)` / `\\min(a, b)`.

(Named `bigops`, not `aggregates`: `frontend/aggregates.py` is about C structs.) The
aggregate is one primary of the formula grammar: a regex for its keyword, then its
arguments parsed by the grammar's top level, so it costs nothing where it is not used.
"""

from __future__ import annotations

from typing import Any

import pyparsing as pp

from ..terms import AggKind, Aggregate, Binary, BinOp, Conditional, Term
from .context import IDENT_NOT_KW_RE, ctx, error, punct

Toks = pp.ParseResults

KEYWORDS = r"\\(?:sum|product|numof|max|min)(?![A-Za-z_0-9])"
LAMBDA_HINT = "write '\\sum(lo, hi, \\lambda int k; e)': k runs from lo to hi inclusive"


def _keyword(s: str, loc: int, toks: Toks) -> tuple[AggKind, int]:
    return (AggKind(str(toks[0])), loc)


def _binder(s: str, loc: int, toks: Toks) -> tuple[str, int]:
    return (str(toks[0]), loc)


def _aggregate(s: str, loc: int, toks: Toks) -> Term:
    (kind, kw_loc), low, high = toks[0], toks[1], toks[2]
    c = ctx()
    span = c.span(kw_loc)
    if len(toks) == 3:  # \max(a, b), \min(a, b): the larger / smaller of two values
        if kind not in (AggKind.MAX, AggKind.MIN):
            raise error(f"'{kind.value}' takes a range and a '\\lambda'", kw_loc, LAMBDA_HINT)
        op = BinOp.GE if kind is AggKind.MAX else BinOp.LE
        return Conditional(Binary(op, low, high, span), low, high, span)
    name, name_loc = toks[3]
    body: Term = toks[4]
    if name in ("tid", "ntid"):
        raise error(f"'{name}' is a built-in name and cannot be bound by '\\lambda'", name_loc)
    if c.define_at(name, name_loc) is not None:
        raise error(f"'{name}' is a #define'd constant and cannot be bound by '\\lambda'", name_loc)
    return Aggregate(kind, low, high, name, body, span)


def _bad_lambda_type(s: str, loc: int, toks: Toks) -> None:
    raise error(
        f"'\\lambda {toks[0]}' is not supported in an aggregate",
        loc,
        "the bound variable of an aggregate is an integer: '\\lambda int k; e'",
    )


def _lambda_outside(s: str, loc: int, toks: Toks) -> None:
    raise error("'\\lambda' may only stand as the last argument of an aggregate", loc, LAMBDA_HINT)


def build(top: pp.ParserElement) -> tuple[pp.ParserElement, pp.ParserElement]:
    """The aggregate primary, and the `\\lambda` that stands anywhere else (an error)."""
    keyword = pp.Regex(KEYWORDS).set_parse_action(_keyword)
    ltype = pp.Regex(r"(?:int|integer)(?![A-Za-z_0-9])").set_name("'int'").suppress()
    bad_type = pp.Regex(r"[A-Za-z_][A-Za-z_0-9]*(?:[ \t\r\n]+int)?").set_parse_action(_bad_lambda_type)
    binder = pp.Regex(IDENT_NOT_KW_RE).set_name("a variable name").set_parse_action(_binder)
    lam = (
        pp.Regex(r"\\lambda(?![A-Za-z_0-9])").set_name("'\\lambda int k; e'").suppress()
        - (ltype | bad_type)
        - binder
        - punct(";", "';' after the bound variable")
        - top
    )
    rest: Any = punct(")", "')'") | (punct(",") - lam - punct(")", "')'"))
    agg = (
        keyword
        - punct("(", "'(' after the aggregate")
        - top
        - punct(",", "',' between the bounds")
        - top
        - rest
    ).set_parse_action(_aggregate)
    stray = pp.Regex(r"\\lambda(?![A-Za-z_0-9])").set_parse_action(_lambda_outside)
    return agg, stray
