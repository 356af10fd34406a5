"""ACSL aggregates (`\\sum`, `\\product`, `\\numof`, `\\max`, `\\min`) in VCs.

The encoder cannot translate an aggregate where it meets it: the VC's array states are
renamed (H-ASSIGN's x', loop havoc, `\\old`) only after the clause is encoded, and SMT has
no λ. So `Encoder` writes a *marker* `agg!KIND(lo, hi, k, body)` with `k` a fresh
constant free in `body`, and `close` replaces every marker of the finished VC:

- bounds that are constants (after thread quantifiers over a fixed count are expanded)
  and a range of at most `MAX_EXPANSION` cells: the sum (product, count, max, min)
  written out;
- otherwise one uninterpreted function per *shape* — the body with its free integer
  constants abstracted (`S(lo, hi, c1..cn)`), so bodies that read different array
  states are different functions — defined by axioms that hold of the true aggregate:
  the empty range (unit), peeling the last and the first element, and splitting a
  range in two (`docs/aggregates.md` says which axioms and why, with measurements).

The axioms are a recursive definition by the length of the range (well-founded), so
they are satisfied by exactly the true aggregate: adding them as hypotheses is sound.
`\\max`/`\\min` of an empty range is left unconstrained (the spec language defines them
for `lo <= hi` only), so no VC can depend on its value.

Sums in specs are mathematical (unbounded integers), as every spec term is; the program's
own arithmetic is checked against C's separately (`unsigned-wrap`, narrowing checks).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import NamedTuple

from pysmt.environment import Environment
from pysmt.fnode import FNode
from pysmt.formula import FormulaManager
from pysmt.typing import INT, FunctionType
from pysmt.walkers import IdentityDagWalker

from ..closed_terms import constant
from ..terms import AggKind

PREFIX = "agg!"
# How \\sum/\\numof with symbolic bounds are encoded: "prefix" (a prefix-sum function, the
# default: docs/aggregates.md) or "range" (a function of both bounds with peeling and
# splitting axioms, kept for measurement and for \\product/\\max/\\min).
SUM_ENCODING = "prefix"
# The prefix function's step axiom P(x) = P(x-1) + B(x): "quantified", its instances at the
# VC's ground prefix terms only ("ground"), or both ("both"); docs/aggregates.md measures them.
PREFIX_STEP = "both"
MAX_EXPANSION = 4096  # cells of a constant range written out (the tree reduction's 2,048)
MAX_UNFOLDING = 64  # cells of a written-out range over which the prefix functions are given too
_MARKERS = {f"{PREFIX}{k.name.lower()}": k for k in AggKind}


def marker(mgr: FormulaManager, kind: AggKind, low: FNode, high: FNode, k: FNode, body: FNode) -> FNode:
    """`agg!KIND(lo, hi, k, body)`: the aggregate, until `close` gives it its meaning."""
    f = mgr.Symbol(f"{PREFIX}{kind.name.lower()}", FunctionType(INT, [INT] * 4))
    return mgr.Function(f, [low, high, k, body])


def has_markers(f: FNode) -> bool:
    return any(s.symbol_name() in _MARKERS for s in f.get_free_variables())


@dataclass(frozen=True)
class _Use:
    kind: AggKind
    low: FNode
    high: FNode
    k: FNode
    body: FNode
    term: FNode  # what the marker became


class Effects(NamedTuple):
    """What replacing one marker recorded (`Closer.effects`)."""

    uses: tuple[_Use, ...]
    rewrites: tuple[tuple[FNode, FNode], ...]
    ranges: tuple[tuple[int, int], ...]


MAX_PAIRS = 64  # extensionality instances per VC


def subterms(f: FNode) -> set[FNode]:
    """Every node of `f`, `f` among them."""
    seen: set[FNode] = set()
    stack = [f]
    while stack:
        g = stack.pop()
        if g not in seen:
            seen.add(g)
            stack.extend(g.args())
    return seen


def _shift(m: FormulaManager, body: FNode, k: FNode) -> tuple[FNode, FNode] | None:
    """(c, e(k)) when `body` is e(k + c): every occurrence of k stands in a sum `k + c` (or a
    difference `k - d`, c = -d) with one c free of k; None otherwise (or when k is absent)."""
    parents: set[FNode] = set()
    c: FNode | None = None
    seen: set[FNode] = set()
    stack = [body]
    while stack:
        g = stack.pop()
        if g in seen or k not in g.get_free_variables():
            continue
        seen.add(g)
        if g == k:
            return None  # k read bare (the body itself, or under a node handled below)
        offset: FNode | None = None
        if g.is_plus() and k in g.args():
            rest = [a for a in g.args() if a != k]
            if len(rest) == len(g.args()) - 1 and rest:
                offset = rest[0] if len(rest) == 1 else m.Plus(rest)
        elif g.is_minus() and g.arg(0) == k:
            offset = m.Minus(m.Int(0), g.arg(1))
        if offset is not None and k not in offset.get_free_variables():
            if c is not None and c != offset:
                return None
            c = offset
            parents.add(g)
            continue
        stack.extend(g.args())
    if c is None:
        return None
    return c, body.substitute({p: k for p in parents})


class Closer(IdentityDagWalker):  # type: ignore[misc]
    """Replaces the markers of one kernel's VCs; shapes (and their axioms) are shared."""

    def __init__(self, env: Environment) -> None:
        super().__init__(env=env, invalidate_memoization=False)
        self.shapes: dict[tuple[str, FNode], FNode] = {}
        self.definitions: dict[FNode, list[FNode]] = {}  # function -> its axioms
        self.canon_k = self.mgr.Symbol(f"{PREFIX}k", INT)
        self.steps: dict[FNode, tuple[list[FNode], FNode]] = {}  # prefix function -> step axiom
        self.bodies: dict[FNode, FNode] = {}  # prefix function -> its body B(x), x the step's first variable
        self.ranges: list[tuple[int, int]] = []  # constant ranges of sums written out (`unfoldings`)
        self.uses: list[_Use] = []  # the aggregates encoded by a function, for `ground_facts`
        # Σ lo..hi of a body `e1 + e2` or `e(k + c)` and the same sum rewritten (linearity, a
        # change of the bound variable): equations given where the sum stands outside quantifiers
        self.rewrites: list[tuple[FNode, FNode]] = []
        # what replacing each marker added to the three lists above: a VC gets the facts of
        # the markers it holds, though the walk (memoized for the kernel) met them only once
        self.effects: dict[FNode, Effects] = {}
        # function -> (its key, its shape, the shape's parameters, its arity): `shape_links`
        self.signatures: dict[FNode, tuple[str, FNode, tuple[FNode, ...], int]] = {}

    def walk_function(self, formula: FNode, args: list[FNode], **kwargs: object) -> FNode:
        name = formula.function_name().symbol_name()
        if name not in _MARKERS:
            return self.mgr.Function(formula.function_name(), args)
        before = len(self.uses), len(self.rewrites), len(self.ranges)
        out = self._aggregate(_MARKERS[name], *args)
        self.effects[formula] = Effects(
            tuple(self.uses[before[0] :]), tuple(self.rewrites[before[1] :]), tuple(self.ranges[before[2] :])
        )
        return out

    def _aggregate(self, kind: AggKind, low: FNode, high: FNode, k: FNode, body: FNode) -> FNode:
        lo, hi = constant(low), constant(high)
        extremum = kind in (AggKind.MAX, AggKind.MIN)  # of an empty range: no axiom, no value
        if lo is not None and hi is not None and hi - lo + 1 <= MAX_EXPANSION and (hi >= lo or not extremum):
            if kind in (AggKind.SUM, AggKind.NUMOF) and 0 <= hi - lo < MAX_UNFOLDING:
                self.ranges.append((lo, hi))
            return self._expand(kind, lo, hi, k, body)
        m = self.mgr
        captured = sorted((v for v in body.get_free_variables() if v.get_type() is INT and v != k), key=str)
        canon = [m.Symbol(f"{PREFIX}c{i}", INT) for i in range(len(captured))]
        shape = body.substitute({k: self.canon_k, **dict(zip(captured, canon, strict=True))})
        if kind in (AggKind.SUM, AggKind.NUMOF) and SUM_ENCODING == "prefix":
            # Σ lo..hi = P(hi) - P(lo - 1): splitting a range is linear arithmetic, no axiom
            p = self._function("prefix", shape, canon, 1, lambda f: self._prefix_axioms(f, shape, canon))
            span = m.Minus(
                m.Function(p, [high, *captured]), m.Function(p, [m.Minus(low, m.Int(1)), *captured])
            )
            out = m.Ite(m.LT(high, low), m.Int(0), span)
        else:
            f = self._function(
                kind.name.lower(), shape, canon, 2, lambda f: self._axioms(kind, f, shape, canon)
            )
            out = m.Function(f, [low, high, *captured])
        self.uses.append(_Use(kind, low, high, k, body, out))
        if kind is AggKind.SUM:
            self._rewrite(low, high, k, body, out)
        return out

    def _rewrite(self, low: FNode, high: FNode, k: FNode, body: FNode, out: FNode) -> None:
        """Record `out = Σ lo..hi e1 + Σ lo..hi e2` for a body `e1 + e2` (linearity) and
        `out = Σ lo+c..hi+c e(k)` for a body that reads k only as `k + c` with c free of k (a
        change of variable): theorems about finite sums, which the prefix functions (one per
        body) would need induction for. `docs/aggregates.md`: the tree reduction's
        `\\sum(0, 2s-1, a[k]) == \\sum(0, s-1, a[k] + a[k+s])`."""
        m = self.mgr
        if body.is_plus():
            parts = [self._aggregate(AggKind.SUM, low, high, k, b) for b in body.args()]
            self.rewrites.append((out, m.Plus(parts)))
            return
        shifted = _shift(m, body, k)
        if shifted is not None:
            c, inner = shifted
            moved = self._aggregate(AggKind.SUM, m.Plus(low, c), m.Plus(high, c), k, inner)
            self.rewrites.append((out, moved))

    def _function(
        self, key: str, shape: FNode, canon: list[FNode], arity: int, axioms: Callable[[FNode], list[FNode]]
    ) -> FNode:
        """The function of this shape (made, with its axioms, on first use)."""
        f = self.shapes.get((key, shape))
        if f is None:
            name = f"{PREFIX}{key}!{len(self.shapes)}!{len(canon)}"
            f = self.mgr.Symbol(name, FunctionType(INT, [INT] * (arity + len(canon))))
            self.shapes[(key, shape)] = f
            self.signatures[f] = (key, shape, tuple(canon), arity)
            self.definitions[f] = axioms(f)
        return f

    def _prefix_axioms(self, p: FNode, shape: FNode, canon: list[FNode]) -> list[FNode]:
        """P(-1) = 0 and P(x) = P(x - 1) + B(x) for every integer x: P(x) is B's sum over
        0..x (and minus its sum over x+1..-1 below -1), the only function satisfying both."""
        m = self.mgr
        n = len(self.shapes)
        x = m.Symbol(f"{PREFIX}x!{n}", INT)
        cs = [m.Symbol(f"{PREFIX}c{i}!{n}", INT) for i in range(len(canon))]
        b = shape.substitute({self.canon_k: x, **dict(zip(canon, cs, strict=True))})
        anchor = m.Equals(m.Function(p, [m.Int(-1), *cs]), m.Int(0))
        step = m.Equals(m.Function(p, [x, *cs]), m.Plus(m.Function(p, [m.Minus(x, m.Int(1)), *cs]), b))
        self.steps[p] = ([x, *cs], step)
        self.bodies[p] = b
        out = [m.ForAll(cs, anchor) if cs else anchor]
        return [*out, m.ForAll([x, *cs], step)] if PREFIX_STEP != "ground" else out

    def ground_facts(
        self,
        free: AbstractSet[FNode],
        goal: FNode | None = None,
        uses: Sequence[_Use] = (),
        rewrites: Sequence[tuple[FNode, FNode]] = (),
    ) -> list[FNode]:
        """Facts of the true aggregates at the VC's aggregates outside quantifiers, beyond what
        the recursive axioms give without induction: a count lies in 0..(length of the
        range), two aggregates of one kind over the same range are equal unless their
        bodies differ somewhere in it (extensionality, with a fresh witness of the difference),
        and so are two over bounds that may be equal, one of them in `goal` (the obligation),
        when the bounds are; and the rewrites of `_rewrite`. `free`: the VC's free symbols;
        `uses`, `rewrites`: those of its markers (`effects`)."""
        m = self.mgr
        in_goal = subterms(goal) if goal is not None else set()
        uses = [u for u in uses if u.term.get_free_variables() <= free]
        out: list[FNode] = []
        for u in uses:
            if u.kind is AggKind.NUMOF:
                length = m.Ite(m.LT(u.high, u.low), m.Int(0), m.Plus(m.Minus(u.high, u.low), m.Int(1)))
                out.append(m.And(m.LE(m.Int(0), u.term), m.LE(u.term, length)))
        out += [
            m.Equals(t, r)
            for t, r in rewrites
            if (t.get_free_variables() | r.get_free_variables()) <= free | self.definitions.keys()
        ]
        pairs = 0
        for same_bounds in (True, False):  # bounds that are the same terms first
            for i, a in enumerate(uses):
                for b in uses[i + 1 :]:
                    same = (a.low, a.high) == (b.low, b.high)
                    if a.kind is not b.kind or a.term == b.term or pairs >= MAX_PAIRS or same != same_bounds:
                        continue
                    if not same and a.term not in in_goal and b.term not in in_goal:
                        continue
                    w = m.Symbol(f"{PREFIX}w!{pairs}", INT)
                    pairs += 1
                    differ = m.Not(m.Equals(a.body.substitute({a.k: w}), b.body.substitute({b.k: w})))
                    witness = m.And(m.LE(a.low, w), m.LE(w, a.high), differ)
                    if a.kind in (AggKind.MAX, AggKind.MIN):  # an empty range has no value to compare
                        witness = m.Or(m.LT(a.high, a.low), witness)
                    fact = m.Or(m.Equals(a.term, b.term), witness)
                    if not same:  # bounds that may be equal: the fact holds when they are
                        fact = m.Implies(m.And(m.Equals(a.low, b.low), m.Equals(a.high, b.high)), fact)
                    out.append(fact)
        return out

    def ground_steps(self, formula: FNode) -> list[FNode]:
        """The step axiom's instances at the prefix terms of `formula` outside quantifiers
        (with `PREFIX_STEP` "ground", all the VC gets: no matching loop for the solver)."""
        if PREFIX_STEP == "quantified":
            return []
        free = formula.get_free_variables()
        out: list[FNode] = []
        seen: set[FNode] = set()
        stack = [formula]
        while stack:
            g = stack.pop()
            if g in seen:
                continue
            seen.add(g)
            stack.extend(g.args())
            ours = g.is_function_application() and g.function_name() in self.steps
            if ours and g.get_free_variables() <= free:
                params, step = self.steps[g.function_name()]
                out.append(step.substitute(dict(zip(params, g.args(), strict=True))))
        return out

    def unfoldings(self, free: AbstractSet[FNode], ranges: Iterable[tuple[int, int]]) -> list[FNode]:
        """For each prefix function P among the VC's symbols `free` and each constant range
        lo..hi of a sum written out in the VC (`ranges`), `∀c̄. P(hi, c̄) - P(lo - 1, c̄) =
        B(lo, c̄) + ... + B(hi, c̄)`: a theorem (P is B's prefix sum), which lets the solver
        compare a sum it reaches through P at constant bounds (a loop invariant's
        `\\sum(0, m*16 + k - 1, ...)` after the loop) with a written-out one (the
        postcondition's) without hi - lo + 1 instantiations of the step axiom."""
        m = self.mgr
        out: list[FNode] = []
        for p in sorted(free & self.steps.keys(), key=str):
            (x, *cs), body = self.steps[p][0], self.bodies[p]
            for lo, hi in sorted(set(ranges)):
                cells = [body.substitute({x: m.Int(i)}) for i in range(lo, hi + 1)]
                span = m.Minus(m.Function(p, [m.Int(hi), *cs]), m.Function(p, [m.Int(lo - 1), *cs]))
                fact = m.Equals(span, m.Plus(cells))
                out.append(m.ForAll(cs, fact) if cs else fact)
        return out

    def _expand(self, kind: AggKind, lo: int, hi: int, k: FNode, body: FNode) -> FNode:
        m = self.mgr
        cells = [body.substitute({k: m.Int(i)}) for i in range(lo, hi + 1)]
        if kind in (AggKind.SUM, AggKind.NUMOF):
            return m.Plus(cells) if cells else m.Int(0)
        if kind is AggKind.PRODUCT:
            return m.Times(cells) if len(cells) > 1 else (cells[0] if cells else m.Int(1))
        out = cells[0]
        for c in cells[1:]:
            out = m.Ite(m.GT(c, out) if kind is AggKind.MAX else m.LT(c, out), c, out)
        return out

    def _axioms(self, kind: AggKind, f: FNode, shape: FNode, canon: list[FNode]) -> list[FNode]:
        """The defining axioms of `f`, quantified over fresh variables (see the module doc)."""
        m = self.mgr
        n = len(self.shapes)
        lo, hi, mid = (m.Symbol(f"{PREFIX}{v}!{n}", INT) for v in ("lo", "hi", "mid"))
        cs = [m.Symbol(f"{PREFIX}c{i}!{n}", INT) for i in range(len(canon))]
        rename = dict(zip(canon, cs, strict=True))

        def S(a: FNode, b: FNode) -> FNode:
            return m.Function(f, [a, b, *cs])

        def B(x: FNode) -> FNode:
            return shape.substitute({self.canon_k: x, **rename})

        one = m.Int(1)
        out: list[FNode] = []
        if kind in (AggKind.MAX, AggKind.MIN):
            pick: Callable[[FNode, FNode], FNode] = lambda a, b: m.Ite(  # noqa: E731
                m.GE(a, b) if kind is AggKind.MAX else m.LE(a, b), a, b
            )
            last = m.Ite(m.Equals(lo, hi), B(hi), pick(S(lo, m.Minus(hi, one)), B(hi)))
            first = m.Ite(m.Equals(lo, hi), B(lo), pick(B(lo), S(m.Plus(lo, one), hi)))
            out.append(m.ForAll([lo, hi, *cs], m.Implies(m.LE(lo, hi), m.Equals(S(lo, hi), last))))
            out.append(m.ForAll([lo, hi, *cs], m.Implies(m.LE(lo, hi), m.Equals(S(lo, hi), first))))
            split = m.And(m.LE(lo, mid), m.LT(mid, hi))
            halves = pick(S(lo, mid), S(m.Plus(mid, one), hi))
        else:
            unit = m.Int(1) if kind is AggKind.PRODUCT else m.Int(0)
            join: Callable[[FNode, FNode], FNode] = m.Times if kind is AggKind.PRODUCT else m.Plus
            out.append(m.ForAll([lo, hi, *cs], m.Implies(m.LT(hi, lo), m.Equals(S(lo, hi), unit))))
            last = join(S(lo, m.Minus(hi, one)), B(hi))
            first = join(B(lo), S(m.Plus(lo, one), hi))
            out.append(m.ForAll([lo, hi, *cs], m.Implies(m.LE(lo, hi), m.Equals(S(lo, hi), last))))
            out.append(m.ForAll([lo, hi, *cs], m.Implies(m.LE(lo, hi), m.Equals(S(lo, hi), first))))
            split = m.And(m.LE(lo, m.Plus(mid, one)), m.LE(mid, hi))
            halves = join(S(lo, mid), S(m.Plus(mid, one), hi))
        out.append(m.ForAll([lo, mid, hi, *cs], m.Implies(split, m.Equals(S(lo, hi), halves))))
        return out

    def axioms(self, free: AbstractSet[FNode]) -> list[FNode]:
        """The definitions of the functions among `free` (and of those they use)."""
        todo = [s for s in free if s in self.definitions]
        seen: set[FNode] = set()
        out: list[FNode] = []
        while todo:
            f = todo.pop()
            if f in seen:
                continue
            seen.add(f)
            for ax in self.definitions[f]:
                out.append(ax)
                todo += [s for s in ax.get_free_variables() if s in self.definitions and s not in seen]
        return out


class Closed(NamedTuple):
    """A VC with its aggregates given their meaning: `axioms ∧ hypothesis → obligation`."""

    axioms: list[FNode]  # true of the true aggregates, whatever the rest: they define `defines`
    defines: frozenset[FNode]  # the aggregates' function symbols
    hypothesis: FNode
    obligation: FNode

    def formula(self, mgr: FormulaManager) -> FNode:
        return mgr.Implies(mgr.And(*self.axioms, self.hypothesis), self.obligation)
