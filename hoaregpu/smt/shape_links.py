"""Links between aggregate functions whose bodies differ only in their subterms free of the
bound variable (`smt.sums` makes one function per body *shape*, its free integer constants
abstracted).

A thread's loop invariant `\\sum(0, m*16 - 1, A[rowK + j] * B[j*32 + col])` and the
postcondition's `\\sum(0, K - 1, A[r*K + k] * B[k*32 + c])` are two prefix functions `P1(x, t)`
and `P2(x, r, K, c)`, and that they agree where `rowK(t) = r*K` and `col(t) = c` would take an
induction. Both bodies are one *general* body `A[g0 + k] * B[k*32 + g1]` with `g0, g1` for the
body's maximal integer subterms free of `k` (literals kept), so where a VC holds two such
functions each gets a link to one function `Q` of the general body:

    ∀x, c̄. P1(x, c̄) = Q(x, rowK(c̄), col(c̄))      ∀x, r, K, c. P2(x, r, K, c) = Q(x, r*K, c)

and congruence equates them. The links are true of the true aggregates (each side is the
aggregate of one body over the same range, Q the general body's), so adding them is sound,
and Q needs no axiom of its own. Only VCs with two functions of one general body get links:
making the general body *the* shape (tried on 2026-12-02, docs/aggregates.md) slowed other
proofs down (`specs/showcase/matmul_tiled16.cu`).
"""

from __future__ import annotations

from collections.abc import Iterable

from pysmt.environment import Environment
from pysmt.fnode import FNode
from pysmt.typing import INT, FunctionType
from pysmt.walkers import IdentityDagWalker

from ..terms import AggKind
from .sums import PREFIX, Closer, subterms


def captured(body: FNode, k: FNode) -> list[FNode] | None:
    """The maximal integer subterms of `body` free of `k` that are not literals, in order of
    first occurrence; None for a body with a quantifier (a subterm may read a variable it
    binds)."""
    if any(g.is_quantifier() for g in subterms(body)):
        return None
    out: list[FNode] = []
    seen: set[FNode] = set()
    stack = [body]
    while stack:  # pre-order, without recursion: a body may be deep
        g = stack.pop()
        if g in seen:
            continue
        seen.add(g)
        if k not in g.get_free_variables() and g.get_type() is INT and not g.is_constant():
            out.append(g)
            continue
        stack.extend(reversed(g.args()))
    return out


def replace(env: Environment, f: FNode, mapping: dict[FNode, FNode]) -> FNode:
    """`f` with each occurrence of a key replaced, outermost first (pySMT's `substitute`
    replaces symbols only, not `rowK(t)`)."""
    walker = IdentityDagWalker(env=env, invalidate_memoization=True)
    walker.memoization.update(mapping)
    out: FNode = walker.walk(f)
    return out


class ShapeLinks:
    """The links of one kernel's aggregate functions (module doc), each made once."""

    def __init__(self, closer: Closer) -> None:
        self.closer = closer
        self._general: dict[FNode, tuple[tuple[str, FNode, int], tuple[FNode, ...]] | None] = {}
        self._q: dict[tuple[str, FNode, int], FNode] = {}
        self._links: dict[FNode, FNode] = {}

    def _generalize(self, f: FNode) -> tuple[tuple[str, FNode, int], tuple[FNode, ...]] | None:
        """(general key, the general body's arguments over f's shape parameters), once per f."""
        if f not in self._general:
            key, shape, _, arity = self.closer.signatures[f]
            subs = captured(shape, self.closer.canon_k)
            # \max/\min of an empty range have no value: their functions are left unlinked
            # there, as everywhere (a link would equate two such unknowns)
            if subs is None or key in (AggKind.MAX.name.lower(), AggKind.MIN.name.lower()):
                self._general[f] = None
            else:
                m = self.closer.mgr
                gs = [m.Symbol(f"{PREFIX}g{i}", INT) for i in range(len(subs))]
                general = replace(self.closer.env, shape, dict(zip(subs, gs, strict=True)))
                self._general[f] = ((key, general, arity), tuple(subs))
        return self._general[f]

    def links(self, free: Iterable[FNode]) -> list[FNode]:
        """The links of the aggregate functions among `free` that share a general body with
        another among them."""
        groups: dict[tuple[str, FNode, int], list[FNode]] = {}
        for f in sorted((s for s in free if s in self.closer.signatures), key=str):
            g = self._generalize(f)
            if g is not None:
                groups.setdefault(g[0], []).append(f)
        return [self._link(f) for fs in groups.values() if len(fs) > 1 for f in fs]

    def _link(self, f: FNode) -> FNode:
        """∀x̄, c̄. f(x̄, c̄) = Q(x̄, s̄(c̄)), with x̄ f's bounds and c̄ its shape's parameters."""
        if f in self._links:
            return self._links[f]
        m = self.closer.mgr
        general = self._generalize(f)
        assert general is not None
        gkey, subs = general
        arity = gkey[2]
        q = self._q.get(gkey)
        if q is None:
            name = f"{PREFIX}general!{len(self._q)}!{len(subs)}"
            q = self._q[gkey] = m.Symbol(name, FunctionType(INT, [INT] * (arity + len(subs))))
            self.closer.definitions[q] = []  # an aggregate function, defined by the links alone
        _, _, canon, _ = self.closer.signatures[f]
        n = len(self._links)
        xs = [m.Symbol(f"{PREFIX}lx{i}!{n}", INT) for i in range(arity)]
        cs = [m.Symbol(f"{PREFIX}lc{i}!{n}", INT) for i in range(len(canon))]
        rename = dict(zip(canon, cs, strict=True))
        args = [s.substitute(rename) for s in subs]
        link = m.Equals(m.Function(f, [*xs, *cs]), m.Function(q, [*xs, *args]))
        out = self._links[f] = m.ForAll([*xs, *cs], link)
        return out
