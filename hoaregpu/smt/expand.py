"""Finite instantiation of quantifiers over a fixed thread range.

With a fixed thread count K, a quantifier `∀i. 0 <= i < K ∧ … → φ` (as every thread
quantifier is built by `Encoder.in_range`) is equivalent to the conjunction of its K
instances, and likewise `∃i. 0 <= i < K ∧ …` to a disjunction. Solvers decide the
quantifier-free version far better, and find counterexamples they miss otherwise.
"""

from __future__ import annotations

from pysmt.environment import Environment
from pysmt.fnode import FNode
from pysmt.walkers import IdentityDagWalker

MAX_EXPANSION = 64


def _bound_of(guard: FNode, v: FNode) -> int | None:
    """K when `guard` is a conjunction containing `0 <= v` and `v < K` (K a literal)."""
    conjuncts = guard.args() if guard.is_and() else (guard,)
    flat: list[FNode] = []
    stack = list(conjuncts)
    while stack:
        c = stack.pop()
        if c.is_and():
            stack.extend(c.args())
        else:
            flat.append(c)
    low = any(
        c.is_le() and c.arg(1) == v and c.arg(0).is_int_constant() and c.arg(0).constant_value() == 0
        for c in flat
    )
    for c in flat:
        if c.is_lt() and c.arg(0) == v and c.arg(1).is_int_constant() and low:
            return int(c.arg(1).constant_value())
    return None


class ExpandThreadQuantifiers(IdentityDagWalker):  # type: ignore[misc]
    # (pySMT's `simplify()` is not used on instances: it folds integer `div` through floats,
    # which is wrong from 2^53 on.)
    def __init__(self, env: Environment) -> None:
        super().__init__(env=env, invalidate_memoization=False)

    def _expand(self, formula: FNode, body: FNode, universal: bool) -> FNode | None:
        qvars = formula.quantifier_vars()
        if len(qvars) != 1:
            return None
        v = qvars[0]
        if universal and body.is_implies():
            guard = body.arg(0)
        elif not universal and body.is_and():
            guard = body
        else:
            return None
        k = _bound_of(guard, v)
        if k is None or k > MAX_EXPANSION:
            return None
        mgr = self.mgr
        instances = [body.substitute({v: mgr.Int(t)}) for t in range(k)]
        return mgr.And(instances) if universal else mgr.Or(instances)

    def walk_forall(self, formula: FNode, args: list[FNode], **kwargs: object) -> FNode:
        out = self._expand(formula, args[0], universal=True)
        return out if out is not None else self.mgr.ForAll(formula.quantifier_vars(), args[0])

    def walk_exists(self, formula: FNode, args: list[FNode], **kwargs: object) -> FNode:
        out = self._expand(formula, args[0], universal=False)
        return out if out is not None else self.mgr.Exists(formula.quantifier_vars(), args[0])
