"""A side condition's goal as parts that a solver takes one at a time (proof/checker.py):
their conjunction is equivalent to the goal."""

from __future__ import annotations

from ..terms import BinOp, UnOp
from .formula import AllNone, At, Bin, F, FnForall, Name, Num, Quant, Un
from .formula_ops import int_literal, subst_name

MAX_GOAL_PARTS = 64


def goal_parts(g: F) -> list[F]:
    """Goals whose conjunction is equivalent to `g`: a conjunction in the consequent of
    `⇒`, under `∀` (integers, threads, functions) and under `@ t` is split, as a VC
    generator splits its goals, since one solver query per conjunct is far steadier than
    one for the whole (vector_add_symbolic's loop step: 0.1–1.3 s per part on every z3
    seed, against 0.3 s to over 25 s for the whole). A `∀` whose guard bounds each of its
    integers by literals (`\\forall int r, c; 0 <= r < 4 && 0 <= c < 4 ==> ...`) is also
    split into its instances when they are few: each part is then ground in those
    integers (the 4 x 4 tiled multiplication's postcondition: 0.5 s a cell with z3 5.4,
    no answer in 100 s for the whole). More than `MAX_GOAL_PARTS` parts: the instances
    stay quantified, and then `g` stays whole."""
    for instances in (True, False):
        parts = _split(g, instances)
        if len(parts) <= MAX_GOAL_PARTS:
            return parts
    return [g]


def _split(g: F, instances: bool) -> list[F]:
    # Validity distributes over ∧ under each of these binders and in a consequent.
    if isinstance(g, Bin) and g.op is BinOp.AND:
        return [*_split(g.left, instances), *_split(g.right, instances)]
    if isinstance(g, Bin) and g.op is BinOp.IMPLIES:
        return [Bin(BinOp.IMPLIES, g.left, p) for p in _split(g.right, instances)]
    if isinstance(g, Quant) and g.forall:
        points = box_instances(g) if instances else None
        if points is not None:
            return [p for x in points for p in _split(x, instances)]
        return [Quant(True, g.names, p) for p in _split(g.body, instances)]
    if isinstance(g, FnForall):
        return [FnForall(g.name, p) for p in _split(g.body, instances)]
    if isinstance(g, AllNone) and g.all:
        return [AllNone(True, p) for p in _split(g.term, instances)]
    if isinstance(g, At):
        return [At(p, g.thread) for p in _split(g.term, instances)]
    return [g]


def box_instances(q: Quant) -> list[F] | None:
    """The instances of `∀ n̄. guard ⇒ body` at every point of the box that the guard's
    top-level conjuncts `lit <= n`, `n < lit`, ... put each n in (None: some n is not so
    bounded, the box is empty, or it has more than `MAX_GOAL_PARTS` points). Every n that
    satisfies the guard lies in the box, so the instances together are the formula."""
    if not (q.forall and isinstance(q.body, Bin) and q.body.op is BinOp.IMPLIES):
        return None
    low: dict[str, int] = {}
    high: dict[str, int] = {}
    todo, guards = [q.body.left], []
    while todo:
        c = todo.pop()
        if isinstance(c, Bin) and c.op is BinOp.AND:
            todo += [c.left, c.right]
        else:
            guards.append(c)
    for c in guards:
        bound = _literal_bound(c, q.names)
        if bound is None:
            continue
        name, lo, hi = bound
        if lo is not None:
            low[name] = max(lo, low.get(name, lo))
        if hi is not None:
            high[name] = min(hi, high.get(name, hi))
    if not all(n in low and n in high for n in q.names):
        return None
    sizes = [high[n] - low[n] + 1 for n in q.names]
    count = 1
    for size in sizes:
        count *= max(size, 0)
    if not 0 < count <= MAX_GOAL_PARTS:
        return None
    points: list[list[int]] = [[]]
    for n in q.names:
        points = [[*p, v] for p in points for v in range(low[n], high[n] + 1)]
    out: list[F] = []
    for point in points:
        body: F = q.body
        for n, v in zip(q.names, point, strict=True):
            body = subst_name(body, n, Num(v) if v >= 0 else Un(UnOp.NEG, Num(-v)))
        out.append(body)
    return out


def _literal_bound(c: F, names: tuple[str, ...]) -> tuple[str, int | None, int | None] | None:
    """(n, lowest, highest) that the comparison `c` of a bound integer n with a literal allows."""
    if not (isinstance(c, Bin) and c.op in (BinOp.LE, BinOp.LT, BinOp.GE, BinOp.GT)):
        return None
    op: BinOp = c.op
    left, right = c.left, c.right
    if isinstance(right, Name) and not right.indices and right.name in names:  # lit op n: flip
        op = {BinOp.LE: BinOp.GE, BinOp.LT: BinOp.GT, BinOp.GE: BinOp.LE, BinOp.GT: BinOp.LT}[op]
        left, right = right, left
    lit = int_literal(right)
    if not (isinstance(left, Name) and not left.indices and left.name in names) or lit is None:
        return None
    if op is BinOp.LE:
        return left.name, None, lit
    if op is BinOp.LT:
        return left.name, None, lit - 1
    if op is BinOp.GE:
        return left.name, lit, None
    return left.name, lit + 1, None
