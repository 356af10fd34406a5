"""A stronger goal: atoms of the obligation replaced by the constant that makes it stronger.

A subformula `A` reached from the root of `G` through `¬`, `∧`, `∨`, `→`, `∀` and `∃` only
(not into an `↔` or an `ite`) has a polarity, and `G` is monotone in it: increasing where
`A` is positive, decreasing where it is negative. Replacing a positive `A` by `false` or a
negative one by `true` therefore gives `G'` with `G' → G`, so a proof of `path → G'` is a
proof of `path → G` (a refutation of it is not: `G'` may fail where `G` holds).

The race checks use it (`driver._slices`): a write conflicts with another thread's write to
the same cell *of a different value* (`race_instrument.conflict`, Definition 5.4(b)), and
that value is the whole history of the array, which a solver unfolds through every earlier
round even when the two cells never coincide. Without the value atom the goal says "no
other thread writes this cell at all", whose slice keeps the logs' flags and offsets but
not the arrays' contents (the down-sweep of a Blelloch scan on 256 threads: 60 s without
an answer, 0.1 s so).
"""

from __future__ import annotations

from collections.abc import Callable

from pysmt.fnode import FNode
from pysmt.formula import FormulaManager


def strengthened(mgr: FormulaManager, goal: FNode, drop: Callable[[FNode], bool]) -> FNode | None:
    """`goal` with every subformula of known polarity that `drop` selects replaced so that
    the result implies `goal` (module doc); None when there is none."""
    changed = False

    def go(f: FNode, positive: bool) -> FNode:
        nonlocal changed
        if f.is_not():
            return mgr.Not(go(f.arg(0), not positive))
        if f.is_and():
            return mgr.And([go(a, positive) for a in f.args()])
        if f.is_or():
            return mgr.Or([go(a, positive) for a in f.args()])
        if f.is_implies():
            return mgr.Implies(go(f.arg(0), not positive), go(f.arg(1), positive))
        if f.is_forall():
            return mgr.ForAll(f.quantifier_vars(), go(f.arg(0), positive))
        if f.is_exists():
            return mgr.Exists(f.quantifier_vars(), go(f.arg(0), positive))
        if drop(f):  # (any formula here is in a position of known polarity)
            changed = True
            return mgr.FALSE() if positive else mgr.TRUE()
        return f

    out = go(goal, True)
    return out if changed else None


def named(prefix: str) -> Callable[[FNode], bool]:
    """Selects the symbols (of every version `x!k`) whose name starts with `prefix`."""
    return lambda s: s.symbol_name().startswith(prefix)


def reading(select: Callable[[FNode], bool]) -> Callable[[FNode], bool]:
    """Selects the formulas that read a symbol `select` selects."""
    return lambda f: any(select(s) for s in f.get_free_variables())
