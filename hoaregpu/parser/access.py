"""The grammar of the access facts (spec-language §5, docs/races.md): `\\written(a, i)`,
`\\read(a, i)` (one index per dimension of `a`), and `\\written(a)` / `\\read(a)` (some cell).

One primary of the formula grammar, as the aggregates of `bigops.py`: a regex for the
keyword, then its arguments parsed by the grammar's top level. What they mean (the race
logs of the current barrier interval) is `hoaregpu.access_facts`.
"""

from __future__ import annotations

import pyparsing as pp

from ..terms import Access, AccessKind, Term, Var
from .context import ctx, error, punct

Toks = pp.ParseResults

KEYWORD = r"\\(?:written|read)(?![A-Za-z_0-9])"
HINT = "write '\\written(a, i)' (cell a[i]) or '\\written(a)' (some cell of a), a an array's name"


def _keyword(s: str, loc: int, toks: Toks) -> tuple[AccessKind, int]:
    return (AccessKind(str(toks[0])), loc)


def _access(s: str, loc: int, toks: Toks) -> Term:
    (kind, kw_loc), array = toks[0], toks[1]
    indices: tuple[Term, ...] = tuple(toks[2:])
    if not isinstance(array, Var) or array.indices:
        raise error(f"the first argument of '{kind.value}' must be the name of an array", kw_loc, HINT)
    span = ctx().span(kw_loc)
    return Access(kind, Var(array.name, indices, array.span), not indices, span)


def build(top: pp.ParserElement) -> pp.ParserElement:
    """The access-fact primary."""
    keyword = pp.Regex(KEYWORD).set_parse_action(_keyword)
    more = pp.ZeroOrMore(punct(",") - top)
    return (
        keyword - punct("(", "'(' after the access fact") - top - more - punct(")", "')'")
    ).set_parse_action(_access)
