"""The cone of influence of an obligation in its path: a weaker VC, as small as the
obligation's own dependencies rather than as long as the program.

A VC is `(h1 ∧ … ∧ hk) → goal` (`goals.Hyp`). Dropping hypotheses only weakens it: if the
sliced VC is valid, so is the whole one, so slicing is sound for proofs (not for
refutations: a model of a sliced VC may violate a dropped hypothesis). The conjuncts kept
are those connected to the goal through the symbols they share, transitively (a
*definition* of a symbol, `F!k(i) = e`, only through the symbol it defines: what `e`
reads does not need it; `_defined`), where the connection does not run through *hubs*:
constants (`n`, `ntid`, a counterexample's witnesses), the initial state (`\\old(a)`) and
the functions defined from those alone (`_derived_hubs`), which every part of a kernel may
mention, and through which everything would be connected. A conjunct that mentions hubs
only (a `requires`, the launch's facts) is always kept.

Houdini (`race_invariants`) proves its candidates on slices first: in a kernel of N
sequential loops, a loop's candidate depends on its own loop and the one before, while the
whole path grows with N, and a fresh solver per candidate re-read it (quadratic in N).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import NamedTuple, overload

from pysmt.environment import Environment
from pysmt.fnode import FNode

from .goals import Hyp

_Select = Callable[[FNode], bool]  # of symbols


def conjuncts(f: FNode) -> list[FNode]:
    """The conjuncts of `f` (nested `and`s flattened, `true` dropped), in order."""
    out: list[FNode] = []
    todo = [f]
    while todo:
        x = todo.pop()
        if x.is_and():
            todo.extend(reversed(x.args()))
        elif not x.is_true():
            out.append(x)
    return out


def _links(f: FNode) -> frozenset[FNode]:
    """The symbols through which f is connected to other conjuncts: its free symbols but the
    hubs: constants, and the kernel's initial state (what `\\old` reads, read by every loop's
    invariant: `a!7[tid] >= a[tid]`). Every later version of a variable is named `x!k`
    (`Encoder.fresh`; `!` never occurs in a program name)."""
    return frozenset(
        s for s in f.get_free_variables() if s.symbol_type().is_function_type() and "!" in s.symbol_name()
    )


def _defined(f: FNode, links: frozenset[FNode]) -> frozenset[FNode]:
    """The symbol `F` that `f` defines, if `f` is `∀x̄. [g →] F(x̄) = e` with `x̄` distinct
    and `F` read neither by `g` nor by `e` (a new version of a variable: `F!k(i) =
    ite(mask, v, F!j(i))`, or a havocked one bound by an invariant). Whatever the other
    symbols are, some `F` satisfies it, so a slice that reads nothing of `F` loses nothing
    by leaving it out: a definition is kept for its symbol only, not for what it reads."""
    bound: tuple[FNode, ...] = ()
    if f.is_forall():
        bound, f = tuple(f.quantifier_vars()), f.arg(0)
    guard = None
    if f.is_implies():
        guard, f = f.arg(0), f.arg(1)
    if not (f.is_equals() or f.is_iff()):
        return frozenset()
    for lhs, rhs in ((f.arg(0), f.arg(1)), (f.arg(1), f.arg(0))):
        if not lhs.is_function_application():
            continue
        name, args = lhs.function_name(), lhs.args()
        if name not in links or tuple(args) != bound:  # (a quantifier's variables are distinct)
            continue
        if name in rhs.get_free_variables() or (guard is not None and name in guard.get_free_variables()):
            continue
        return frozenset((name,))
    return frozenset()


def _derived_hubs(parts: list[tuple[_Part, frozenset[FNode]]]) -> frozenset[FNode]:
    """The symbols whose every definition reads hubs alone (a sum over the initial state:
    `P(x) = P(x - 1) + \\old(a)[x]`): functions of the initial state. Through them a slice
    reaches their definitions only, not every conjunct that mentions them (every clause that
    sums over the input would be connected to every other). To a fixpoint: a symbol defined
    from those is one as well."""
    definitions: dict[FNode, list[frozenset[FNode]]] = {}
    for part, defined in parts:
        for f in defined:
            definitions.setdefault(f, []).append(part.links - defined)
    derived: frozenset[FNode] = frozenset()
    while True:
        more = frozenset(f for f, reads in definitions.items() if all(r <= derived for r in reads))
        if more <= derived:
            return derived
        derived = more


def _total(f: FNode, defined: frozenset[FNode]) -> frozenset[FNode]:
    """`defined`, if `f` defines its symbol everywhere (`∀x̄. F(x̄) = e`, a store's new
    version), else nothing: a guarded `∀x̄. g → F(x̄) = e` says what is known of some cells
    (an assumed `assert s[tid] == a[tid]`), which a lean slice keeps."""
    body = f.arg(0) if f.is_forall() else f
    return frozenset() if body.is_implies() else defined


class _Part(NamedTuple):
    # (not the aggregates' axioms?, Hyp.index, position in the hypothesis): path order, but
    # the axioms (the hypothesis that `defines`, a closed VC's last) first, as `smt.script`
    # prints them (z3 is sensitive to the order)
    order: tuple[bool, int, int]
    hyp: Hyp
    conjunct: FNode
    links: frozenset[FNode]
    defines: frozenset[FNode] = frozenset()  # the symbol it defines everywhere (`_total`), if any


class Slicer:
    """Slices of the VCs of one kernel (in one pySMT environment), given the VCs' paths. The
    tree the paths form is numbered (an Euler tour) and the conjuncts of every hypothesis
    are indexed by their links once (when a first slice is asked for), so that a slice
    costs what it keeps, not the length of its path: N sequential loops would otherwise make
    the slices of their VCs quadratic."""

    def __init__(self, env: Environment, paths: Iterable[Hyp | None]) -> None:
        self.env = env
        children: dict[Hyp | None, list[Hyp]] = {}
        known: set[Hyp] = set()
        for path in paths:
            h = path
            while h is not None and h not in known:
                known.add(h)
                children.setdefault(h.parent, []).append(h)
                h = h.parent
        # h is on the path ending at v iff first[h] <= first[v] <= last[h]
        self._first: dict[Hyp, int] = {}
        self._last: dict[Hyp, int] = {}
        clock = 0
        stack: list[tuple[Hyp, bool]] = [(r, False) for r in children.get(None, [])]
        while stack:  # iterative: the tree is as deep as the program
            h, left = stack.pop()
            if left:
                self._last[h] = clock - 1
                continue
            self._first[h] = clock
            clock += 1
            stack.append((h, True))
            stack.extend((c, False) for c in children.get(h, []))
        self._parts: dict[Hyp, list[FNode]] = {}
        self._size: dict[Hyp, int] = {}  # conjuncts on the path ending at the hypothesis
        for h in sorted(known, key=lambda h: self._first[h]):  # parents first
            parts = self._parts[h] = conjuncts(h.formula)
            self._size[h] = len(parts) + (self._size[h.parent] if h.parent is not None else 0)
        self._by_link: dict[FNode, list[_Part]] | None = None  # on the first slice asked for
        self._hubs_only: list[_Part] = []  # conjuncts about hubs only: always kept

    def _index(self) -> dict[FNode, list[_Part]]:
        if self._by_link is None:
            found = [
                (
                    _Part((not h.defines, h.index, pos), h, c, links, _total(c, defined)),
                    h.defines & links or defined,
                )
                for h, parts in self._parts.items()
                for pos, c in enumerate(parts)
                for links in (_links(c),)
                for defined in (_defined(c, links),)
            ]
            derived = _derived_hubs(found)
            self._by_link = {}
            for part, defined in found:
                # a definition is reached through what it defines; any other conjunct through
                # its links but the derived hubs (through those if it has no other)
                keys = defined or part.links - derived or part.links
                if not keys:
                    self._hubs_only.append(part)
                for link in keys:
                    self._by_link.setdefault(link, []).append(part)
        return self._by_link

    def path_size(self, hyps: Hyp | None) -> int:
        """The number of conjuncts on the path (what a slice is measured against)."""
        return self._size[hyps] if hyps is not None else 0

    def _on_path(self, h: Hyp, end: Hyp) -> bool:
        return self._first[h] <= self._first[end] <= self._last[h]

    def on_path(self, h: Hyp, hyps: Hyp | None) -> bool:
        """`h` is one of the hypotheses of the path `hyps`."""
        return hyps is not None and self._on_path(h, hyps)

    def hypotheses(self) -> list[Hyp]:
        """Every hypothesis of the paths, each once, parents first."""
        return list(self._parts)

    def premises(
        self,
        hyps: Hyp | None,
        goal: FNode,
        most: int | None = None,
        without: _Select | None = None,
        opaque: _Select | None = None,
        axioms: bool = True,
    ) -> list[FNode] | None:
        """The conjuncts of the path that the goal depends on (module doc), in path order;
        None once they are more than `most`. Those linked to a symbol that `without` selects
        are left out, and nothing is reached through them (a weaker slice still). The
        total definitions (`_total`) of symbols that `opaque` selects and the goal does not read
        are left out too (what else the path says of them is kept: an assumed assertion
        about a tile's cells, not the tile's store), and without `axioms` the quantified
        conjuncts of the aggregates' axioms (`Hyp.defines`; their ground instances stay):
        weaker slices still."""
        if hyps is None:
            return []
        by_link = self._index()
        keep = {p.order: p for p in self._hubs_only if self._on_path(p.hyp, hyps)}
        if most is not None and len(keep) > most:
            return None
        seen = set(_links(goal))
        read = frozenset(seen)
        todo = list(seen)
        while todo:
            for part in by_link.get(todo.pop(), ()):
                if part.order in keep or not self._on_path(part.hyp, hyps):
                    continue
                if without is not None and any(without(s) for s in part.links):
                    continue
                if (
                    opaque is not None
                    and part.defines
                    and not part.defines & read
                    and all(opaque(s) for s in part.defines)
                ):
                    continue
                if not axioms and part.hyp.defines and part.conjunct.is_forall():
                    continue
                keep[part.order] = part
                if most is not None and len(keep) > most:
                    return None
                for link in part.links - seen:
                    seen.add(link)
                    todo.append(link)
        return [keep[k].conjunct for k in sorted(keep)]

    @overload
    def formula(self, hyps: Hyp | None, goal: FNode) -> FNode: ...
    @overload
    def formula(
        self,
        hyps: Hyp | None,
        goal: FNode,
        most: int,
        without: _Select | None = None,
        opaque: _Select | None = None,
        axioms: bool = True,
    ) -> FNode | None: ...
    def formula(
        self,
        hyps: Hyp | None,
        goal: FNode,
        most: int | None = None,
        without: _Select | None = None,
        opaque: _Select | None = None,
        axioms: bool = True,
    ) -> FNode | None:
        """premises → goal: valid only if the whole VC is (a weaker VC); None when the
        premises are more than `most`."""
        premises = self.premises(hyps, goal, most, without, opaque, axioms)
        if premises is None:
            return None
        m = self.env.formula_manager
        return m.Implies(m.And(premises), goal)
