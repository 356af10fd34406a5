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


def thread_bound(guard: FNode, v: FNode) -> int | None:
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

    def instances(self, formula: FNode) -> FNode | None:
        """A thread quantifier over 0 <= v < K (K <= MAX_EXPANSION) as the conjunction
        (forall) or disjunction (exists) of its K instances; None for any other formula."""
        if not formula.is_quantifier():
            return None
        universal = formula.is_forall()
        body = formula.arg(0)
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
        k = thread_bound(guard, v)
        if k is None or k > MAX_EXPANSION:
            return None
        mgr = self.mgr
        instances = [body.substitute({v: mgr.Int(t)}) for t in range(k)]
        return mgr.And(instances) if universal else mgr.Or(instances)

    def walk_forall(self, formula: FNode, args: list[FNode], **kwargs: object) -> FNode:
        q = self.mgr.ForAll(formula.quantifier_vars(), args[0])
        out = self.instances(q)
        return out if out is not None else q

    def walk_exists(self, formula: FNode, args: list[FNode], **kwargs: object) -> FNode:
        q = self.mgr.Exists(formula.quantifier_vars(), args[0])
        out = self.instances(q)
        return out if out is not None else q
