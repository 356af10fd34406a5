"""The checker's own translation of aggregates (`\\sum`, `\\product`, `\\numof`, `\\max`,
`\\min`) to pySMT. It shares no code with the VC generator's (`smt/sums.py`); the encodings
follow the same mathematics (docs/aggregates.md), written again here so that the checker
stays independent.

`Translator` (proof/smt.py) translates an aggregate's bounds and gives `Aggregates.term` a
function from a value of the bound integer `k` to the body's translation. Then:

1. **Constant bounds** (after the translator expanded thread quantifiers over a fixed
   count, which often makes them constant) and at most `MAX_CELLS` cells: the aggregate
   written out, each cell the body translated at that `k` (exact; an inner aggregate's
   bounds may become constant in turn). `\\max`/`\\min` of an empty range are not written
   out (they have no value; see 3).
2. **Symbolic bounds**: the body is translated once at a fresh `k`; its other free integer
   constants (thread and quantified variables, scalars) are abstracted into arguments c̄,
   the rest (array states, eigenvariables) stays, so one *shape* is one function:
   - `\\sum`, `\\numof` (the body as 0/1): a prefix function P with `∀c̄. P(-1, c̄) = 0` and
     `∀x c̄. P(x, c̄) = P(x-1, c̄) + B(x, c̄)`; the aggregate is
     `ite(hi < lo, 0, P(hi, c̄) - P(lo-1, c̄))`.
   - `\\product`: S(lo, hi, c̄) with `hi < lo → S = 1` and, for `lo <= hi`, peeling the last
     and the first cell; `\\max`/`\\min` the same without the empty case.
3. **Ground facts** at the aggregates that stand outside every quantifier: the axioms'
   instances at their applications (for a prefix function at a constant x in 0..64: down to
   P(-1), so a written-out sum meets a prefix sum without quantifier instantiation);
   `0 <= \\numof(lo, hi, ..) <= max(0, hi - lo + 1)`; and extensionality of two aggregates of
   one kind over the same bounds: `S1 = S2 ∨ (lo <= w <= hi ∧ B1(w) != B2(w))` with a fresh w.

Soundness (a query made unsatisfiable by these additions was unsatisfiable without them, so
no false side condition is proved): every axiom is true of the real aggregate, and the
axioms of 2 are a recursive definition by the length of the range (P by the distance of x
from -1 in either direction, S by hi - lo), so exactly one function satisfies them: the
true one. A countermodel of the side condition extends to a model of the axioms with the
true functions, and to the ground facts (theorems about finite sums) by choosing each
witness w. `\\max`/`\\min` of an empty range is left unconstrained: a side condition holds
only if it holds for every value of it (one value per function and arguments).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from pysmt.environment import Environment
from pysmt.fnode import FNode
from pysmt.typing import INT, FunctionType, PySMTType

from ..closed_terms import constant
from ..terms import AggKind

MAX_CELLS = 1024  # cells of a constant range written out (the 256-thread tree reduction: 512)
MAX_UNFOLD = 64  # a ground prefix term at a constant x in 0..MAX_UNFOLD is unfolded to P(-1)
MAX_PAIRS = 64  # extensionality facts per query


@dataclass(frozen=True)
class _Use:
    """An aggregate encoded by a function (for the ground facts)."""

    kind: AggKind
    low: FNode
    high: FNode
    k: FNode
    body: FNode
    term: FNode


@dataclass(frozen=True)
class _Axiom:
    """`∀ params. body`, the definition of `function`, its arguments `params` in order (None:
    not an instance pattern of the function's applications, e.g. the prefix anchor)."""

    function: FNode
    params: list[FNode] | None
    cs: list[FNode]
    body: FNode


class Aggregates:
    """Aggregates of one query: their functions, axioms and uses (a new one per query)."""

    def __init__(self, env: Environment) -> None:
        self.env = env
        self.mgr = env.formula_manager
        self.functions: dict[tuple[str, FNode], FNode] = {}
        self.axioms: list[_Axiom] = []
        self.uses: list[_Use] = []
        self.prefix: set[FNode] = set()  # the prefix functions

    def _symbol(self, base: str, typ: PySMTType = INT) -> FNode:
        # unique in the environment, which several queries (goal parts) may share
        return self.mgr.FreshSymbol(typ, template=f"agg.{base}!%d")

    # -- terms
    def term(
        self, kind: AggKind, low: FNode, high: FNode, name: str, body: Callable[[FNode], FNode]
    ) -> FNode:
        """The aggregate over `low..high` of `body(k)` (an integer; 0/1 for `\\numof`)."""
        m = self.mgr
        lo, hi = constant(low), constant(high)
        extremum = kind in (AggKind.MAX, AggKind.MIN)
        if lo is not None and hi is not None and hi - lo + 1 <= MAX_CELLS and (lo <= hi or not extremum):
            return self._written_out(kind, [body(m.Int(i)) for i in range(lo, hi + 1)])
        k = self._symbol(name)
        b = body(k)
        captured = sorted((v for v in b.get_free_variables() if v.get_type() is INT and v != k), key=str)
        canon_k = m.Symbol("agg!k", INT)
        canon = [m.Symbol(f"agg!c{i}", INT) for i in range(len(captured))]
        shape = b.substitute({k: canon_k, **dict(zip(captured, canon, strict=True))})

        def at(x: FNode, cs: list[FNode]) -> FNode:  # the body at x, for the arguments cs
            return shape.substitute({canon_k: x, **dict(zip(canon, cs, strict=True))})

        if kind in (AggKind.SUM, AggKind.NUMOF):
            p = self._function(
                "prefix", shape, 1, len(canon), lambda f: self._prefix_axioms(f, at, len(canon))
            )
            span = m.Minus(
                m.Function(p, [high, *captured]), m.Function(p, [m.Minus(low, m.Int(1)), *captured])
            )
            out = m.Ite(m.LT(high, low), m.Int(0), span)
        else:
            s = self._function(
                kind.name.lower(), shape, 2, len(canon), lambda f: self._range_axioms(kind, f, at, len(canon))
            )
            out = m.Function(s, [low, high, *captured])
        self.uses.append(_Use(kind, low, high, k, b, out))
        return out

    def _written_out(self, kind: AggKind, cells: list[FNode]) -> FNode:
        m = self.mgr
        if kind in (AggKind.SUM, AggKind.NUMOF):
            return m.Plus(cells) if cells else m.Int(0)
        if kind is AggKind.PRODUCT:
            return m.Times(cells) if len(cells) > 1 else (cells[0] if cells else m.Int(1))
        out = cells[0]
        for c in cells[1:]:
            out = m.Ite(m.GT(c, out) if kind is AggKind.MAX else m.LT(c, out), c, out)
        return out

    def _function(
        self, key: str, shape: FNode, arity: int, ncs: int, axioms: Callable[[FNode], list[_Axiom]]
    ) -> FNode:
        """The function of this shape, made with its axioms on first use."""
        f = self.functions.get((key, shape))
        if f is None:
            f = self._symbol(key, FunctionType(INT, [INT] * (arity + ncs)))
            self.functions[(key, shape)] = f
            self.axioms += axioms(f)
        return f

    def _prefix_axioms(self, p: FNode, at: Callable[[FNode, list[FNode]], FNode], ncs: int) -> list[_Axiom]:
        m = self.mgr
        x = self._symbol("x")
        cs = [self._symbol("c") for _ in range(ncs)]
        anchor = m.Equals(m.Function(p, [m.Int(-1), *cs]), m.Int(0))
        step = m.Equals(
            m.Function(p, [x, *cs]), m.Plus(m.Function(p, [m.Minus(x, m.Int(1)), *cs]), at(x, cs))
        )
        self.prefix.add(p)
        return [_Axiom(p, None, cs, anchor), _Axiom(p, [x, *cs], cs, step)]

    def _range_axioms(
        self, kind: AggKind, s: FNode, at: Callable[[FNode, list[FNode]], FNode], ncs: int
    ) -> list[_Axiom]:
        m = self.mgr
        lo, hi = self._symbol("lo"), self._symbol("hi")
        cs = [self._symbol("c") for _ in range(ncs)]
        one = m.Int(1)

        def S(a: FNode, b: FNode) -> FNode:
            return m.Function(s, [a, b, *cs])

        if kind is AggKind.PRODUCT:
            last = m.Times(S(lo, m.Minus(hi, one)), at(hi, cs))
            first = m.Times(at(lo, cs), S(m.Plus(lo, one), hi))
        else:

            def pick(a: FNode, b: FNode) -> FNode:
                return m.Ite(m.GE(a, b) if kind is AggKind.MAX else m.LE(a, b), a, b)

            single = m.Equals(lo, hi)
            last = m.Ite(single, at(hi, cs), pick(S(lo, m.Minus(hi, one)), at(hi, cs)))
            first = m.Ite(single, at(lo, cs), pick(at(lo, cs), S(m.Plus(lo, one), hi)))
        params = [lo, hi, *cs]
        out = [
            _Axiom(s, params, cs, m.Implies(m.LE(lo, hi), m.Equals(S(lo, hi), last))),
            _Axiom(s, params, cs, m.Implies(m.LE(lo, hi), m.Equals(S(lo, hi), first))),
        ]
        if kind is AggKind.PRODUCT:
            out.append(_Axiom(s, params, cs, m.Implies(m.LT(hi, lo), m.Equals(S(lo, hi), one))))
        return out

    # -- what a query gets
    def facts(self, asserted: FNode) -> list[FNode]:
        """The axioms of every function made, their ground instances in `asserted`, and the
        ground facts at its aggregates outside quantifiers (see the module doc)."""
        if not self.axioms:
            return []
        m = self.mgr
        _check_closed(asserted, self.axioms)
        out = []
        for ax in self.axioms:
            bound = [*(ax.params or []), *([] if ax.params else ax.cs)]
            out.append(m.ForAll(bound, ax.body) if bound else ax.body)
        ground = asserted.get_free_variables()
        apps = _ground_applications(asserted, {ax.function for ax in self.axioms}, ground)
        out += self._instances(apps)
        uses = [u for u in self.uses if u.term.get_free_variables() <= ground]
        out += self._counts(uses) + self._extensionality(uses)
        return out

    def _instances(self, apps: list[FNode]) -> list[FNode]:
        m = self.mgr
        out: list[FNode] = []
        seen: set[FNode] = set()
        todo = list(apps)
        while todo:
            app = todo.pop()
            if app in seen:
                continue
            seen.add(app)
            f, args = app.function_name(), list(app.args())
            for ax in self.axioms:
                if ax.function == f and ax.params is not None:
                    out.append(ax.body.substitute(dict(zip(ax.params, args, strict=True))))
            x = constant(args[0]) if f in self.prefix else None
            if x is not None and 0 <= x <= MAX_UNFOLD:  # unfold to the anchor P(-1) = 0
                down = m.Function(f, [m.Int(x - 1), *args[1:]])
                if x == 0:
                    out.append(m.Equals(down, m.Int(0)))
                else:
                    todo.append(down)
        return out

    def _counts(self, uses: list[_Use]) -> list[FNode]:
        m = self.mgr
        out = []
        for u in uses:
            if u.kind is AggKind.NUMOF:
                length = m.Ite(m.LT(u.high, u.low), m.Int(0), m.Plus(m.Minus(u.high, u.low), m.Int(1)))
                out.append(m.And(m.LE(m.Int(0), u.term), m.LE(u.term, length)))
        return out

    def _extensionality(self, uses: list[_Use]) -> list[FNode]:
        m = self.mgr
        out: list[FNode] = []
        for i, a in enumerate(uses):
            for b in uses[i + 1 :]:
                if (a.kind, a.low, a.high) != (b.kind, b.low, b.high) or a.term == b.term:
                    continue
                if len(out) >= MAX_PAIRS:
                    return out
                w = self._symbol("w")
                differ = m.Not(m.Equals(a.body.substitute({a.k: w}), b.body.substitute({b.k: w})))
                witness = m.And(m.LE(a.low, w), m.LE(w, a.high), differ)
                if a.kind in (AggKind.MAX, AggKind.MIN):  # an empty range has no value to compare
                    witness = m.Or(m.LT(a.high, a.low), witness)
                out.append(m.Or(m.Equals(a.term, b.term), witness))
        return out


class OpenBody(Exception):
    """An aggregate's body reads a variable bound in the query that is not an integer."""


def _check_closed(asserted: FNode, axioms: list[_Axiom]) -> None:
    """The axioms stand at the top of the query, so a variable bound in it must not occur
    free in them (it would become a different, free, constant there). The translator binds
    only integers, which `term` turns into the functions' arguments: this is a safeguard."""
    bound: set[FNode] = set()
    seen: set[FNode] = set()
    stack = [asserted]
    while stack:
        g = stack.pop()
        if g in seen:
            continue
        seen.add(g)
        if g.is_quantifier():
            bound.update(g.quantifier_vars())
        stack.extend(g.args())
    for ax in axioms:
        clash = (ax.body.get_free_variables() - set(ax.params or []) - set(ax.cs)) & bound
        if clash:
            raise OpenBody(f"an aggregate's body reads the bound {', '.join(sorted(map(str, clash)))}")


def _ground_applications(
    f: FNode, functions: set[FNode], ground: frozenset[FNode] | set[FNode]
) -> list[FNode]:
    """Applications of `functions` in `f` that read no bound variable."""
    out: list[FNode] = []
    seen: set[FNode] = set()
    stack = [f]
    while stack:
        g = stack.pop()
        if g in seen:
            continue
        seen.add(g)
        stack.extend(g.args())
        if (
            g.is_function_application()
            and g.function_name() in functions
            and g.get_free_variables() <= ground
        ):
            out.append(g)
    return out
