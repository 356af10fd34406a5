"""The annotation language: clauses `requires φ;`, `ensures φ;`, `loop invariant φ;`,
`assert φ;`, `assume φ;`, `barrier invariant φ;` inside one `/*@ ... */` or `//@` comment.

The C program around the annotations is Clang's business (`hoaregpu.frontend`); this
grammar sees only the text of one annotation, parsed at its offset in the file so that
every error points into the file.
"""

from __future__ import annotations

import pyparsing as pp

from ..errors import UnsupportedError
from ..syntax import Clause, ClauseKind
from .context import ParseContext, ctx, fail, punct
from .diagnostics import to_spec_error
from .expressions import build

Toks = pp.ParseResults
B = r"(?![A-Za-z_0-9])"  # end of a word
WS = r"[ \t\r\n\f\v]"

# C whitespace; restored at the end of this module so other pyparsing users are unaffected
_SAVED_WHITESPACE = pp.ParserElement.DEFAULT_WHITE_CHARS
pp.ParserElement.set_default_whitespace_chars(" \t\r\n\f\v")

EXPR = build(formula=False)
FORMULA = build(formula=True)


def _clause(s: str, loc: int, toks: Toks) -> Clause:
    kind = ClauseKind(" ".join(str(toks[0]).replace("_", " ").split()))  # `loop_invariant` too
    return Clause(kind, toks[1], ctx().span(loc))


CLAUSE_KW = pp.Regex(
    rf"(?:requires|ensures|loop{WS}+invariant|loop_invariant|barrier{WS}+invariant|barrier_invariant|assert|assume){B}"
)
BAD_CLAUSE = pp.Regex(
    rf"(?:loop{WS}+(?:variant|assigns|frees|allocates)|assigns|decreases|terminates|behaviou?r|complete"
    rf"|disjoint|predicate|logic|lemma|axiomatic|ghost|invariant|frees|allocates|context_everywhere"
    rf"|context|given|yields|exits|returns|breaks|continues|pure|inline|resource){B}"
).set_parse_action(
    fail(
        lambda t, loc: UnsupportedError(
            f"clause '{' '.join(t.split())}'",
            ctx().span(loc),
            "supported clauses: requires, ensures, loop invariant, assert, assume, barrier invariant",
        )
    )
)
CLAUSE = (CLAUSE_KW - FORMULA - punct(";", "';' at the end of the clause")).set_parse_action(_clause)
ANNOTATION = (
    pp.ZeroOrMore(CLAUSE | BAD_CLAUSE)
    - pp.StringEnd().set_name(
        "a clause ('requires', 'ensures', 'loop invariant', 'assert', 'assume', 'barrier invariant') "
        "or the end of the annotation"
    )
).parse_with_tabs()
EXPR_ONLY = (EXPR - pp.StringEnd().set_name("the end of the expression")).parse_with_tabs()
FORMULA_ONLY = (FORMULA - pp.StringEnd().set_name("the end of the formula")).parse_with_tabs()

pp.ParserElement.set_default_whitespace_chars(_SAVED_WHITESPACE)


def parse_clauses(text: str, c: ParseContext) -> list[Clause]:
    """The clauses of one annotation body; `c.base` is the body's offset in the file."""
    try:
        return list(ANNOTATION.parse_string(text, parse_all=True))
    except pp.ParseBaseException as exc:
        raise to_spec_error(exc, text, c) from None
