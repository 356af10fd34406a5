"""A kernel's VCs: the quadruple {requires} T ⇒ body {ensures}, split into obligations.

Each VC is `hypotheses → obligation`, valid iff the obligation holds. The obligation's
leading universal quantifiers (the failing thread, `\\forall int j`) are replaced by free
constants, so that a solver's model names a concrete counterexample; validity quantifies
free constants universally, so nothing changes logically. Each VC also lists the ground
terms whose values make that counterexample readable (thread count, parameters, the
array cells the obligation reads).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import TypeVar

from pysmt.environment import Environment
from pysmt.fnode import FNode
from pysmt.typing import INT

from .. import core
from ..errors import Span
from ..launch import ALL_COORDS, Launch
from ..smt import closing, sums
from ..smt.approx import approximations
from ..smt.encode import Encoder, Mask
from ..smt.speed import substitute
from ..terms import builtin_name
from .goals import Hyp, Obligation, path_of, unwritten
from .kinds import Origin, VcKind
from .passive import VcGen
from .queries import Query as Query
from .queries import ReplayPlan
from .wp import obligations

_T = TypeVar("_T")

MAX_CELL_QUERIES = 12


@dataclass(frozen=True)
class Vc:
    """`hypotheses → obligation`: the hypotheses are a path shared with other VCs
    (`goals.Hyp`); `formula` builds the implication itself (on demand: it is as large as
    the path, and the driver prints the shared paths once instead, `smt.script`)."""

    kernel: str
    origin: Origin
    hyps: Hyp | None = field(repr=False)
    obligation: FNode
    queries: tuple[Query, ...]
    # what the formula approximates by uninterpreted functions (`smt.approx`): a refutation
    # of such a VC may be spurious until execution confirms it
    approximations: tuple[str, ...] = ()

    @property
    def kind(self) -> VcKind:
        return self.origin.kind

    @cached_property
    def formula(self) -> FNode:
        """(h1 ∧ … ∧ hk) → obligation, in the current pySMT environment (the kernel's)."""
        from pysmt.shortcuts import And, Implies

        return Implies(And(path_of(self.hyps)), self.obligation)


def entry_facts(enc: Encoder, kernel: core.Kernel) -> list[FNode]:
    """What holds when the kernel starts: N >= 1, a fixed N, uniform parameters, and the
    ranges of `unsigned` (>= 0) and `bool` (0 or 1: a C bool holds nothing else, and without
    the fact a counterexample may pick p = 2) parameters and parameter cells."""
    m = enc.mgr

    def ranged(d: core.VarDecl, v: FNode) -> list[FNode]:
        if d.boolean:
            return [m.LE(m.Int(0), v), m.LE(v, m.Int(1))]
        return [m.GE(v, m.Int(0))] if d.nonnegative else []

    facts = enc.size_facts()
    for name in kernel.params:
        d = kernel.decl(name)
        sym = enc.symbol(name)
        if d.dim:
            if d.nonnegative or d.boolean:  # `unsigned *a`, `bool *a`: every cell starts in range
                ns = [enc.fresh("n", INT) for _ in range(d.dim)]
                facts.append(m.ForAll(ns, m.And(ranged(d, m.Function(sym, ns)))))
            continue
        if d.kind is core.VarKind.SHARED:
            facts += ranged(d, sym)
            continue
        # An assigned scalar parameter: every thread's copy starts with the same value.
        t = enc.fresh("tid", INT)
        start = enc.fresh(f"{name}.init", INT)
        same = m.Equals(m.Function(sym, [t]), start)
        facts.append(m.ForAll([t], m.Implies(enc.in_range(t), same)))
        facts += ranged(d, start)
    return facts


def kernel_obligations(enc: Encoder, kernel: core.Kernel) -> list[Obligation]:
    """{requires} T ⇒ body {ensures}: under requires (and the entry facts), the obligations
    of the body, then `ensures` in the final state. The encoder is left in the initial state."""
    span = kernel.span or Span("<kernel>", 1, 1)
    top = Mask()
    g = VcGen(enc, span)
    g.assume(enc.mgr.And([*entry_facts(enc, kernel), *(enc.formula(f.term, top) for f in kernel.requires)]))
    obligations(kernel.body, top, g)
    for f in kernel.ensures:
        g.prove(enc.formula(f.term, top), Origin(VcKind.POSTCONDITION, f.span, "H-CONSEQ"))
    enc.undo_to(0)
    return g.obligations


def precondition(kernel: core.Kernel, env: Environment, threads: int | Launch | None = None) -> FNode | None:
    """What `requires` and the entry facts say of the initial state, when there is a `requires`.

    If it is unsatisfiable, every VC holds vacuously: the driver checks that separately."""
    if not kernel.requires:
        return None
    enc = Encoder(kernel, env, threads)
    pre = enc.mgr.And([*entry_facts(enc, kernel), *(enc.formula(f.term, Mask()) for f in kernel.requires)])
    return closing.close_formula(env, pre)


def generate(kernel: core.Kernel, env: Environment, threads: int | Launch | None = None) -> list[Vc]:
    """The kernel's VCs, in program order. Time and space are linear in the kernel: the VCs
    share their hypotheses (`Vc.hyps`)."""
    enc = Encoder(kernel, env, threads)
    out = []
    leaves = kernel_obligations(enc, kernel)
    known = _Known(enc, kernel)
    closing = _Closing(env, leaves, enc.nthreads.is_constant())
    for leaf in leaves:
        obligation, witnesses = _strip_foralls(enc, leaf.formula)
        hyps = leaf.hyps
        if closing.needed(hyps, obligation):
            hyps, obligation = closing.close(hyps, obligation)
        queries = _queries(enc, kernel, known, obligation, witnesses)
        found = set(approximations(obligation))
        if hyps is not None:
            found |= hyps.approximations
        out.append(Vc(kernel.name, leaf.origin, hyps, obligation, queries, tuple(sorted(found))))
    return out


def _along(hyps: Hyp | None, memo: dict[int, _T], empty: _T, step: Callable[[Hyp, _T], _T]) -> _T:
    """`step(hypothesis, value below it)` folded along the path from its root, memoized by
    `Hyp.index` in `memo`: each hypothesis is looked at once per kernel, as paths share them."""
    todo = list(unwritten(hyps, memo.keys()))
    start = todo[0].parent if todo else hyps
    below = memo[start.index] if start is not None else empty
    for x in todo:
        below = memo[x.index] = step(x, below)
    return below


class _Closing:
    """Aggregates (`smt.sums`) get their meaning once a VC's states are all named: a VC whose
    path or obligation holds one is closed. Its path becomes the closed path, each
    hypothesis rewritten once for the kernel (`closing.KernelCloser`), so closed VCs share
    their paths as open ones do, followed by one hypothesis of the VC's own: the
    aggregates' axioms and facts (which define the aggregates' functions: `Hyp.defines`).
    (It was one hypothesis per VC, the whole path closed: a text quadratic in the kernel,
    22 MB for the Blelloch scan at 1,024 threads, and 86% of its preparation time.)"""

    def __init__(self, env: Environment, leaves: list[Obligation], fixed: bool) -> None:
        self.env = env
        self.closer = closing.KernelCloser(env, fixed)
        self.marked: dict[int, bool] = {}  # Hyp.index -> the path up to it holds an aggregate
        self.closed: dict[int, Hyp | None] = {}  # Hyp.index -> its closed counterpart
        self.next_index = 1 + max((leaf.hyps.index for leaf in leaves if leaf.hyps is not None), default=0)

    def needed(self, hyps: Hyp | None, obligation: FNode) -> bool:
        return sums.has_markers(obligation) or self._path_marked(hyps)

    def _path_marked(self, hyps: Hyp | None) -> bool:
        return _along(hyps, self.marked, False, lambda x, below: below or sums.has_markers(x.formula))

    def _closed_path(self, hyps: Hyp | None) -> Hyp | None:
        """The closed counterpart of the path: the same Hyp where closing changes nothing on it."""
        return _along(hyps, self.closed, None, self._closed_hyp)

    def _closed_hyp(self, x: Hyp, below: Hyp | None) -> Hyp | None:
        f = self.closer.rewrite(x.formula)
        if f == x.formula and below is x.parent:
            return x
        known = below.approximations if below is not None else frozenset()
        closed = Hyp(f, below, self.next_index, known | frozenset(approximations(f)), x.defines)
        self.next_index += 1
        return closed

    def close(self, hyps: Hyp | None, obligation: FNode) -> tuple[Hyp, FNode]:
        """The VC's path closed, then the aggregates' axioms and facts; its closed obligation."""
        path = self._closed_path(hyps)
        goal = self.closer.rewrite(obligation)
        facts = self.closer.facts([*path_of(path), goal], goal)
        axioms = self.env.formula_manager.And(facts)
        known = path.approximations if path is not None else frozenset()
        found = known | frozenset(approximations(axioms))
        defines = frozenset(self.closer.closer.definitions)
        self.next_index += 1
        return Hyp(axioms, path, self.next_index - 1, found, defines), goal


def _strip_foralls(enc: Encoder, f: FNode) -> tuple[FNode, list[tuple[str, FNode]]]:
    """∀x. φ in a positive position → φ[x0/x] with a fresh constant x0 (for readable models)."""
    m = enc.mgr
    witnesses: list[tuple[str, FNode]] = []

    def go(g: FNode) -> FNode:
        if g.is_forall():
            mapping = {}
            for v in g.quantifier_vars():
                label = v.symbol_name().split("!")[0]
                c = enc.fresh(f"{label}.cex", v.symbol_type())
                witnesses.append((label, c))
                mapping[v] = c
            return go(substitute(enc.env, g.arg(0), mapping))
        if g.is_implies():
            return m.Implies(g.arg(0), go(g.arg(1)))
        if g.is_and():
            return m.And([go(a) for a in g.args()])
        return g

    return go(f), witnesses


@dataclass(frozen=True)
class _Known:
    """What every VC's queries read of the kernel, computed once (per VC it made the
    queries quadratic in kernels with many variables)."""

    owner: dict[FNode, tuple[str, bool]]  # `Encoder.version_owner`
    shared: tuple[core.VarDecl, ...]  # the user's __shared__ variables
    replay: ReplayPlan

    def __init__(self, enc: Encoder, kernel: core.Kernel) -> None:
        object.__setattr__(self, "owner", enc.version_owner())
        shared = (
            d for d in kernel.decls if d.kind is core.VarKind.SHARED and d.role is not core.VarRole.SYNTHETIC
        )
        object.__setattr__(self, "shared", tuple(shared))
        object.__setattr__(self, "replay", ReplayPlan(enc, kernel, self.shared))


def _queries(
    enc: Encoder, kernel: core.Kernel, known: _Known, obligation: FNode, witnesses: list[tuple[str, FNode]]
) -> tuple[Query, ...]:
    queries: list[Query] = [Query(enc.ntid, "blockDim.x")]
    queries += [Query(enc.sizes[c], builtin_name(c.size_term())) for c in ALL_COORDS[1:] if c in enc.live]
    queries += [Query(c, label) for label, c in witnesses]
    for name in kernel.params:
        d = kernel.decl(name)
        if d.kind is core.VarKind.SHARED and d.dim == 0:
            queries.append(Query(enc.symbol(name), d.display_name, "initially", var=name))
    position = {q.smt: i for i, q in enumerate(queries)}
    owner = known.owner
    cells = 0
    for sub in _ground_cells(obligation, owner):
        if cells >= MAX_CELL_QUERIES or sub in position:
            continue
        sym = sub.function_name() if sub.is_function_application() else sub
        var, initial = owner[sym]
        arg_pos = []
        for a in sub.args() if sub.is_function_application() else ():
            if a not in position:
                position[a] = len(queries)
                queries.append(Query(a, "", None))
            arg_pos.append(position[a])
        d = kernel.decl(var)
        state = "initially" if initial else "at the failure"
        position[sub] = len(queries)
        queries.append(Query(sub, d.display_name, state, d.kind is core.VarKind.LOCAL, tuple(arg_pos), var))
        cells += 1
    known.replay.add_to(queries, position)
    return tuple(queries)


def _ground_cells(f: FNode, owner: dict[FNode, tuple[str, bool]]) -> list[FNode]:
    """Program-variable reads in `f` whose arguments mention no bound variable, in order.

    (Every bound variable is a fresh symbol bound once, so a symbol bound in `f` occurs
    only inside its quantifier: a read mentions a bound variable iff it mentions one of
    the quantifier variables of `f`.)"""
    bound: set[FNode] = set()
    seen: set[FNode] = set()
    out: list[FNode] = []
    stack = [f]
    while stack:
        g = stack.pop()
        if g in seen:
            continue
        seen.add(g)
        if g.is_quantifier():
            bound.update(g.quantifier_vars())
        sym = g.function_name() if g.is_function_application() else (g if g.is_symbol() else None)
        if sym is not None and sym in owner:
            out.append(g)
        stack.extend(reversed(g.args()))
    return [g for g in out if not (g.get_free_variables() & bound)]
