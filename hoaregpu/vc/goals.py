"""Obligations under hypotheses: what VC generation produces, shared rather than copied.

VC generation (`vc.wp`) runs forward over the program and meets hypotheses (an assign
predicate, a branch condition's definition, an invariant, an assumption) and obligations
(an assertion, an invariant at entry, a postcondition, ...) in program order. A hypothesis
extends the current *path*, a persistent linked list (`Hyp`): a loop's body and its
continuation both extend the path at the loop head, and share it. An `Obligation` is a
leaf with the path it is under; the VC it stands for is `(h1 ∧ … ∧ hk) → leaf`, with
h1 … hk the path from its root. So a kernel's VCs take space linear in the program, and
so does printing them (`smt.script`: each hypothesis is printed once, and named).
"""

from __future__ import annotations

from collections.abc import Iterator
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field

from pysmt.fnode import FNode

from .kinds import Origin


@dataclass(frozen=True, eq=False)
class Hyp:
    """One hypothesis and the path before it (None: the empty path)."""

    formula: FNode
    parent: Hyp | None
    index: int  # 1, 2, ...: the order the generator made the hypotheses in (unique per kernel)
    # what the path approximates by uninterpreted functions so far (`smt.approx`): shared
    # with the parent when this hypothesis adds nothing
    approximations: frozenset[str] = field(default=frozenset())
    # symbols this hypothesis defines: it holds for some value of them whatever the rest is
    # (the aggregates' axioms, `smt.sums`), so a slice needs it only for them (`vc.slicing`)
    defines: frozenset[FNode] = field(default=frozenset())

    def path(self) -> list[FNode]:
        """h1 … hk, this one last (iterative: paths are as long as the program)."""
        out: list[FNode] = []
        h: Hyp | None = self
        while h is not None:
            out.append(h.formula)
            h = h.parent
        out.reverse()
        return out


def path_of(hyps: Hyp | None) -> list[FNode]:
    return hyps.path() if hyps is not None else []


def unwritten(hyps: Hyp | None, written: AbstractSet[int]) -> Iterator[Hyp]:
    """The hypotheses of the path whose index is not in `written`, root first."""
    todo: list[Hyp] = []
    h = hyps
    while h is not None and h.index not in written:
        todo.append(h)
        h = h.parent
    return reversed(todo)


@dataclass(frozen=True)
class Obligation:
    """A leaf: `formula` must hold under the hypotheses `hyps`; `origin` says what for."""

    hyps: Hyp | None
    formula: FNode
    origin: Origin
