"""Goal trees: a weakest precondition that still knows which part proves what.

A WP is a formula, but a user needs one verdict per clause. So WP is computed over
goals: leaves are obligations with an `Origin`, `GImp` carries a hypothesis (an assign
predicate, a branch condition, an invariant, an assumption), `GAnd` groups. `split`
turns a goal into one implication per leaf: (h1 ∧ … ∧ hk) → leaf. Each is linear in the
size of the program, because hypotheses are shared FNodes, not copies.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from weakref import WeakKeyDictionary

from pysmt.environment import Environment
from pysmt.fnode import FNode
from pysmt.walkers import IdentityDagWalker

from .kinds import Origin


@dataclass(frozen=True)
class GLeaf:
    formula: FNode
    origin: Origin


@dataclass(frozen=True)
class GImp:
    hyp: FNode
    goal: Goal


@dataclass(frozen=True)
class GAnd:
    goals: tuple[Goal, ...]


Goal = GLeaf | GImp | GAnd


class Renamer(IdentityDagWalker):  # type: ignore[misc]
    """φ[x'/x] for program variables, which are function symbols (pySMT's substitute
    only replaces terms). Bound variables are never renamed: they are fresh symbols."""

    def __init__(self, mapping: Mapping[FNode, FNode], env: Environment) -> None:
        super().__init__(env=env, invalidate_memoization=False)
        self.mapping = mapping

    def walk_symbol(self, formula: FNode, args: object, **kwargs: object) -> FNode:
        return self.mapping.get(formula, formula)

    def walk_function(self, formula: FNode, args: list[FNode], **kwargs: object) -> FNode:
        name = formula.function_name()
        return self.mgr.Function(self.mapping.get(name, name), args)


_RENAMERS: WeakKeyDictionary[Environment, Renamer] = WeakKeyDictionary()


def renamer(mapping: Mapping[FNode, FNode], env: Environment) -> Renamer:
    """A walker for `mapping`; one per environment is reused (building a walker is costly)."""
    walker = _RENAMERS.get(env)
    if walker is None:
        walker = _RENAMERS[env] = Renamer(mapping, env)
    walker.mapping = mapping
    walker.memoization.clear()
    return walker


def rename(goal: Goal, mapping: Mapping[FNode, FNode], env: Environment) -> Goal:
    if not mapping:
        return goal
    walker = renamer(mapping, env)
    cache: dict[int, Goal] = {}

    def go(g: Goal) -> Goal:
        key = id(g)
        if key not in cache:
            if isinstance(g, GLeaf):
                cache[key] = GLeaf(walker.walk(g.formula), g.origin)
            elif isinstance(g, GImp):
                cache[key] = GImp(walker.walk(g.hyp), go(g.goal))
            else:
                cache[key] = GAnd(tuple(go(x) for x in g.goals))
        return cache[key]

    return go(goal)


def conj(*goals: Goal) -> Goal:
    flat: list[Goal] = []
    for g in goals:
        flat.extend(g.goals if isinstance(g, GAnd) else (g,))
    return flat[0] if len(flat) == 1 else GAnd(tuple(flat))


def split(goal: Goal) -> Iterator[tuple[tuple[FNode, ...], GLeaf]]:
    """Each leaf with the hypotheses above it, in source order of the leaves' generation."""
    stack: list[tuple[Goal, tuple[FNode, ...]]] = [(goal, ())]
    while stack:
        g, hyps = stack.pop()
        if isinstance(g, GLeaf):
            yield hyps, g
        elif isinstance(g, GImp):
            stack.append((g.goal, (*hyps, g.hyp)))
        else:
            stack.extend((sub, hyps) for sub in reversed(g.goals))
