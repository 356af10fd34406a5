"""Generic traversals over the `Term` union (children, rebuilding, conjunctions, spans),
kept apart from the term dataclasses so `terms.py` holds the syntax trees only."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from .errors import Span
from .terms import (
    Access,
    Aggregate,
    At,
    Binary,
    BinOp,
    Conditional,
    Fits,
    IntLit,
    Old,
    Quant,
    Term,
    ThreadPred,
    Unary,
    Unsigned,
    Var,
)


def children(term: Term) -> tuple[Term, ...]:
    """Direct subterms, for generic traversals."""
    if isinstance(term, Var):
        return term.indices
    if isinstance(term, Binary):
        return (term.left, term.right)
    if isinstance(term, (Unary,)):
        return (term.operand,)
    if isinstance(term, Conditional):
        return (term.cond, term.then, term.orelse)
    if isinstance(term, Quant):
        return (term.body,)
    if isinstance(term, Aggregate):
        return (term.low, term.high, term.body)
    if isinstance(term, At):
        return (term.term, term.thread) if term.block is None else (term.term, term.thread, term.block)
    if isinstance(term, (Old, ThreadPred, Unsigned, Fits)):
        return (term.term,)
    if isinstance(term, Access):
        return (term.target,)
    return ()


def map_children(term: Term, f: Callable[[Term], Term]) -> Term:
    """`term` with `f` applied to each direct subterm (the inverse of `children`)."""
    if isinstance(term, Var):
        return replace(term, indices=tuple(f(i) for i in term.indices)) if term.indices else term
    if isinstance(term, Binary):
        return replace(term, left=f(term.left), right=f(term.right))
    if isinstance(term, Unary):
        return replace(term, operand=f(term.operand))
    if isinstance(term, Conditional):
        return replace(term, cond=f(term.cond), then=f(term.then), orelse=f(term.orelse))
    if isinstance(term, Quant):
        return replace(term, body=f(term.body))
    if isinstance(term, Aggregate):
        return replace(term, low=f(term.low), high=f(term.high), body=f(term.body))
    if isinstance(term, At):
        block = None if term.block is None else f(term.block)
        return replace(term, term=f(term.term), thread=f(term.thread), block=block)
    if isinstance(term, Old | ThreadPred | Unsigned | Fits):
        return replace(term, term=f(term.term))
    if isinstance(term, Access):
        return replace(term, target=f(term.target))
    return term


def subterms(term: Term) -> list[Term]:
    """All subterms, pre-order, the term itself first."""
    out: list[Term] = []
    stack = [term]
    while stack:
        t = stack.pop()
        out.append(t)
        stack.extend(reversed(children(t)))
    return out


def conjoin(terms: Sequence[Term]) -> Term:
    """`t1 && t2 && ...`, left-nested (`1`, true, for none)."""
    out = terms[0] if terms else IntLit(1)
    for t in terms[1:]:
        out = Binary(BinOp.AND, out, t)
    return out


def operands(term: Term, op: BinOp) -> list[Term]:
    """The operands of a tree of `op` rooted at `term`, left to right, however it is nested
    (the term itself when it is no `op`); iterative, since chains may be 1,000 deep."""
    out: list[Term] = []
    stack = [term]
    while stack:
        t = stack.pop()
        if isinstance(t, Binary) and t.op is op:
            stack += [t.right, t.left]
        else:
            out.append(t)
    return out


def conjuncts(term: Term) -> list[Term]:
    """The conjuncts of `a && b && ...` (the term itself when it is no conjunction)."""
    return operands(term, BinOp.AND)


def variable_names(term: Term) -> set[str]:
    """The names of the variables (and arrays) the term reads."""
    return {s.name for s in subterms(term) if isinstance(s, Var)}


def term_span(term: Term) -> Span | None:
    return term.span
