"""Closing VCs' aggregates for one kernel (`smt.sums` says what closing means): each
hypothesis closed once, the facts that depend on the whole VC made per VC."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from pysmt.environment import Environment
from pysmt.fnode import FNode

from .expand import ExpandThreadQuantifiers
from .shape_links import ShapeLinks
from .sums import Closed, Closer, Effects, has_markers, subterms


class _Local(NamedTuple):
    """What a closed hypothesis contributes to its VCs' facts (`KernelCloser.facts`)."""

    effects: tuple[Effects, ...]  # of the markers it held
    free: frozenset[FNode]
    steps: tuple[FNode, ...]  # `Closer.ground_steps`


class KernelCloser:
    """Closes the VCs of one kernel. Each hypothesis is rewritten once, by one memoized
    `Closer` (the same formula is the same closed formula in every VC, so the closed paths
    share it as the open paths do, and `smt.script` prints it once), and only what depends
    on the whole VC (`facts`) is made per VC. `fixed`: the thread count is a constant, so
    thread quantifiers are expanded first (their instances may make bounds constant)."""

    def __init__(self, env: Environment, fixed: bool) -> None:
        self.mgr = env.formula_manager
        self.closer = Closer(env)
        self.shape_links = ShapeLinks(self.closer)
        self._expand = ExpandThreadQuantifiers(env) if fixed else None
        self._closed: dict[FNode, FNode] = {}
        self._local: dict[FNode, _Local] = {}

    def rewrite(self, f: FNode) -> FNode:
        """`f` with its markers replaced (and its thread quantifiers expanded, if fixed)."""
        out = self._closed.get(f)
        if out is None:
            g = self._expand.walk(f) if self._expand is not None else f
            out = self._closed[f] = self.closer.walk(g)
            if out not in self._local:
                effects = self.closer.effects
                markers = [x for x in subterms(g) if x in effects] if has_markers(g) else []
                self._local[out] = _Local(
                    tuple(effects[x] for x in sorted(markers, key=lambda x: x.node_id())),
                    frozenset(out.get_free_variables()),
                    tuple(self.closer.ground_steps(out)),
                )
        return out

    def facts(self, closed: Sequence[FNode], goal: FNode | None, unfold: bool = True) -> list[FNode]:
        """The axioms and facts of the aggregates of a VC whose closed hypotheses and
        obligation are `closed` (each a `rewrite`), `goal` its closed obligation: true of the
        true aggregates, whatever the rest (they define the aggregates' functions)."""
        locals_ = [self._local[f] for f in dict.fromkeys(closed)]
        free: set[FNode] = set().union(*(x.free for x in locals_))
        effects = list(dict.fromkeys(e for x in locals_ for e in x.effects))
        facts = self.closer.ground_facts(
            free,
            goal,
            list(dict.fromkeys(u for e in effects for u in e.uses)),
            list(dict.fromkeys(r for e in effects for r in e.rewrites)),
        )
        with_facts = free.union(*(f.get_free_variables() for f in facts))
        steps = list(dict.fromkeys(s for x in locals_ for s in x.steps))
        # links of functions of one general body (the facts may bring a function in)
        out = self.closer.axioms(with_facts) + self.shape_links.links(with_facts) + steps + facts
        if unfold:
            out += self.closer.unfoldings(with_facts, (r for e in effects for r in e.ranges))
        return out


def close(env: Environment, hypothesis: FNode, obligation: FNode, fixed: bool) -> Closed:
    """The VC `hypothesis → obligation` with its aggregates given their meaning (the closed
    obligation is also what the counterexample's queries ask about); see `KernelCloser`."""
    if not (has_markers(hypothesis) or has_markers(obligation)):
        return Closed([], frozenset(), hypothesis, obligation)
    kc = KernelCloser(env, fixed)
    hyp, obl = kc.rewrite(hypothesis), kc.rewrite(obligation)
    return Closed(kc.facts([hyp, obl], obl), frozenset(kc.closer.definitions), hyp, obl)


def close_formula(env: Environment, f: FNode) -> FNode:
    """A formula that is asserted (a precondition): its aggregates and their axioms."""
    if not has_markers(f):
        return f
    kc = KernelCloser(env, fixed=False)
    g = kc.rewrite(f)
    return env.formula_manager.And(*kc.facts([g], None, unfold=False), g)
