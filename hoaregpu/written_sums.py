"""Sums written out term by term, read as the aggregate they are (issue 14: no thread-count
cliff for `a[0] == \\old(a[0]) + \\old(a[1]) + ... + \\old(a[1023])`).

A run of at least `MIN_RUN` consecutive operands of one `+` chain that read consecutive
cells of one array, `x[c] + x[c+1] + ... + x[d]` (each with or without `\\old`, all alike),
is the same integer as `\\sum(c, d, \\lambda int k; x[k])` by the aggregate's definition
(spec-language §5: inclusive bounds, one term per cell), so the formula means the same. The
prover then reasons with its sum axioms (`smt/sums.py`) instead of a chain 1,023 deep, and
the tree reduction with its sum written out is proved as the one stated with `\\sum`.
Shorter runs are left alone: a few terms are easy as they are, and the encodings of the
small specs do not move.
"""

from __future__ import annotations

from .term_walk import map_children, variable_names
from .term_walk import operands as operands_of
from .terms import AggKind, Aggregate, Binary, BinOp, IntLit, Old, Term, Var

MIN_RUN = 32


def _cell(t: Term) -> tuple[bool, str, int] | None:
    """`x[c]` or `\\old(x[c])` with c a literal: (old, x, c)."""
    old = isinstance(t, Old)
    inner = t.term if isinstance(t, Old) else t
    if isinstance(inner, Var) and len(inner.indices) == 1 and isinstance(inner.indices[0], IntLit):
        return old, inner.name, inner.indices[0].value
    return None


def _binder(term: Term) -> str:
    taken = variable_names(term)
    return next(n for n in ("k", *(f"k{i}" for i in range(1, len(taken) + 2))) if n not in taken)


def _fold(operands: list[Term], binder: str) -> list[Term]:
    out: list[Term] = []
    i = 0
    while i < len(operands):
        first = _cell(operands[i])
        j = i + 1
        if first is not None:
            while j < len(operands) and _cell(operands[j]) == (first[0], first[1], first[2] + j - i):
                j += 1
        if first is not None and j - i >= MIN_RUN:
            old, name, low = first
            cell: Term = Var(name, (Var(binder),))
            body = Old(cell) if old else cell
            span = operands[i].span
            out.append(Aggregate(AggKind.SUM, IntLit(low), IntLit(low + j - i - 1), binder, body, span))
            i = j
        else:
            out.append(operands[i])
            i += 1
    return out


def fold_written_sums(term: Term) -> Term:
    """`term` with every long run of consecutive cells in a `+` chain read as a `\\sum`."""
    binder = _binder(term)

    def walk(t: Term) -> Term:
        if not (isinstance(t, Binary) and t.op is BinOp.ADD):
            return map_children(t, walk)
        operands = _fold([walk(x) for x in operands_of(t, BinOp.ADD)], binder)
        out = operands[0]
        for x in operands[1:]:
            out = Binary(BinOp.ADD, out, x, out.span)
        return out

    return walk(term)
