"""The one-point rule on translated side conditions: `∀x ȳ. (x = e ∧ A) ⇒ B` becomes
`∀ȳ. (A ⇒ B)[e/x]` when x does not occur in e (an equivalence over the integers).

Why: a contract read at every thread is `∀t. 0 ≤ t < N ⇒ (∀j. … ∧ j % N == t ∧ … ⇒ Q(j))`,
and to use it for some j a solver must guess t = j % N: e-matching has no term to match,
so it is left to model-based instantiation, whose time depends on the random seed
(vector_add_symbolic's exit side condition: 0.3 s on most z3 seeds, over 25 s on others).
With t replaced by `j % N`, `Q(j)`'s own terms trigger the instance: 0.1 s on every seed.

Nested quantifiers in a consequent are merged first (`∀x. P ⇒ ∀y. Q ⇒ R` is
`∀x y. P ∧ Q ⇒ R`, y not free in P; the translator's bound names are fresh, so there is
no capture). A quantifier where no equation applies is left as it was; one where it applies
is kept beside its substituted form (`H ∧ H'`, equivalent to H), since the substituted form
alone slowed other side conditions: vector_add_symbolic's loop step, where the instance
needed is the goal's own thread, went from 0.5–1 s to 1.5–4 s.
"""

from __future__ import annotations

from pysmt.environment import Environment
from pysmt.fnode import FNode
from pysmt.typing import INT


class OnePoint:
    """Applies the rule to the quantifiers a solver instantiates: those in positive positions
    of the asserted formula (the hypotheses). A goal's quantifiers are Skolemized into
    constants, for which an equation is no obstacle, and there the substitution only nests
    terms (measured: a goal rewritten this way slowed vector_add_symbolic's loop step from
    0.2 s to 7.5 s on one seed)."""

    def __init__(self, env: Environment) -> None:
        self.env = env
        self.mgr = env.formula_manager
        self.memo: dict[tuple[FNode, int], FNode] = {}

    def walk(self, f: FNode, pol: int = 1) -> FNode:
        key = (f, pol)
        if key not in self.memo:
            self.memo[key] = self._walk(f, pol)
        return self.memo[key]

    def _walk(self, f: FNode, pol: int) -> FNode:
        m = self.mgr
        if f.is_not():
            return m.Not(self.walk(f.arg(0), -pol))
        if f.is_and():
            return m.And([self.walk(a, pol) for a in f.args()])
        if f.is_or():
            return m.Or([self.walk(a, pol) for a in f.args()])
        if f.is_implies():
            return m.Implies(self.walk(f.arg(0), -pol), self.walk(f.arg(1), pol))
        if f.is_exists():
            return m.Exists(f.quantifier_vars(), self.walk(f.arg(0), pol))
        if f.is_forall():
            body = self.walk(f.arg(0), pol)
            return (
                self._one_point(f.quantifier_vars(), body) if pol > 0 else m.ForAll(f.quantifier_vars(), body)
            )
        return f

    def _one_point(self, bound: tuple[FNode, ...], body: FNode) -> FNode:
        rebuilt: FNode = self.mgr.ForAll(bound, body)
        qvars = list(bound)
        hyps: list[FNode] = []
        while True:
            if body.is_implies():
                hyps += _conjuncts(body.arg(0))
                body = body.arg(1)
            elif body.is_forall() and not _free_in(body.quantifier_vars(), hyps):
                qvars += body.quantifier_vars()
                body = body.arg(0)
            else:
                break
        changed = False
        while (found := _definition(qvars, hyps)) is not None:
            var, value, k = found
            sub = {var: value}
            hyps = [self.env.substituter.substitute(h, sub) for i, h in enumerate(hyps) if i != k]
            body = self.env.substituter.substitute(body, sub)
            qvars.remove(var)
            changed = True
        if not changed:
            return rebuilt
        if hyps:
            body = self.mgr.Implies(self.mgr.And(hyps), body)
        return self.mgr.And(rebuilt, self.mgr.ForAll(qvars, body) if qvars else body)


def _conjuncts(f: FNode) -> list[FNode]:
    if f.is_and():
        return [c for a in f.args() for c in _conjuncts(a)]
    return [f]


def _free_in(names: tuple[FNode, ...] | list[FNode], fs: list[FNode]) -> bool:
    free = set().union(*(f.get_free_variables() for f in fs)) if fs else set()
    return any(v in free for v in names)


def _definition(qvars: list[FNode], hyps: list[FNode]) -> tuple[FNode, FNode, int] | None:
    """A hypothesis `x = e` (either way round) with x an integer variable of `qvars` not in e."""
    for k, h in enumerate(hyps):
        if not h.is_equals():
            continue
        for var, value in ((h.arg(0), h.arg(1)), (h.arg(1), h.arg(0))):
            if (
                var.is_symbol()
                and var in qvars
                and var.symbol_type() is INT
                and var not in value.get_free_variables()
            ):
                return var, value, k
    return None


def one_point(f: FNode, env: Environment) -> FNode:
    """The asserted formula `f` with the one-point rule applied to its hypotheses' universal
    quantifiers (see above)."""
    return OnePoint(env).walk(f)
