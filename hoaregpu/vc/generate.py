"""A kernel's VCs: the quadruple {requires} T ⇒ body {ensures}, split into obligations.

Each VC is `hypotheses → obligation`, valid iff the obligation holds. The obligation's
leading universal quantifiers (the failing thread, `\\forall int j`) are replaced by free
constants, so that a solver's model names a concrete counterexample; validity quantifies
free constants universally, so nothing changes logically. Each VC also lists the ground
terms whose values make that counterexample readable (thread count, parameters, the
array cells the obligation reads).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from pysmt.environment import Environment
from pysmt.fnode import FNode
from pysmt.typing import INT

from .. import core
from ..errors import Span
from ..launch import ALL_COORDS, Launch
from ..smt import sums
from ..smt.approx import approximations
from ..smt.encode import Encoder, Mask
from ..terms import builtin_name
from .goals import GImp, GLeaf, Goal, Renamer, conj, split
from .kinds import Origin, VcKind
from .wp import WpContext, wp

MAX_CELL_QUERIES = 12


@dataclass(frozen=True)
class Query:
    """A term to evaluate in a counterexample, and how to show it."""

    term: FNode
    label: str  # "blockDim.x", "tid", "j", "n", or a variable name for a cell
    state: str | None = None  # "initially" / "at the failure" for variables; None for witnesses
    thread_arg: bool = False  # a local: the first argument is the thread
    arg_queries: tuple[int, ...] = ()  # positions (in the VC's queries) of the cell's arguments
    var: str = ""  # the core name of the variable read (cells and scalar parameters)
    replay: bool = False  # only for replaying the counterexample (`interp.replay_cex`): not shown


@dataclass(frozen=True)
class Vc:
    kernel: str
    origin: Origin
    formula: FNode
    queries: tuple[Query, ...]
    # what the formula approximates by uninterpreted functions (`smt.approx`): a refutation
    # of such a VC may be spurious until execution confirms it
    approximations: tuple[str, ...] = ()

    @property
    def kind(self) -> VcKind:
        return self.origin.kind


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


def kernel_goal(enc: Encoder, kernel: core.Kernel) -> Goal:
    """{requires} T ⇒ body {ensures} as a goal: requires → wp(body, T, ensures)."""
    span = kernel.span or Span("<kernel>", 1, 1)
    top = Mask()
    post = conj(
        *(
            GLeaf(enc.formula(f.term, top), Origin(VcKind.POSTCONDITION, f.span, "H-CONSEQ"))
            for f in kernel.ensures
        )
    )
    body = wp(kernel.body, top, post, WpContext(enc, span))
    pre = [*entry_facts(enc, kernel), *(enc.formula(f.term, top) for f in kernel.requires)]
    return GImp(enc.mgr.And(pre), body)


def precondition(kernel: core.Kernel, env: Environment, threads: int | Launch | None = None) -> FNode | None:
    """What `requires` and the entry facts say of the initial state, when there is a `requires`.

    If it is unsatisfiable, every VC holds vacuously: the driver checks that separately."""
    if not kernel.requires:
        return None
    enc = Encoder(kernel, env, threads)
    pre = enc.mgr.And([*entry_facts(enc, kernel), *(enc.formula(f.term, Mask()) for f in kernel.requires)])
    return sums.close_formula(env, Renamer(enc.old_to_initial(), env).walk(pre))


def generate(kernel: core.Kernel, env: Environment, threads: int | Launch | None = None) -> list[Vc]:
    enc = Encoder(kernel, env, threads)
    goal = kernel_goal(enc, kernel)
    to_initial = Renamer(enc.old_to_initial(), env)  # its own walker: `rename` reuses the shared one
    out = []
    for hyps, leaf in split(goal):
        obligation, witnesses = _strip_foralls(enc, to_initial.walk(leaf.formula))
        hyp = to_initial.walk(enc.mgr.And(hyps))
        # aggregates (smt.sums) get their meaning once the VC's states are all named
        formula, obligation = sums.close(env, hyp, obligation, enc.nthreads.is_constant())
        queries = _queries(enc, kernel, formula, obligation, witnesses)
        out.append(Vc(kernel.name, leaf.origin, formula, queries, approximations(formula)))
    return out


def _strip_foralls(enc: Encoder, f: FNode) -> tuple[FNode, list[tuple[str, FNode]]]:
    """∀x. φ in a positive position → φ[x0/x] with a fresh constant x0 (for readable models)."""
    m = enc.mgr
    witnesses: list[tuple[str, FNode]] = []

    def go(g: FNode) -> FNode:
        if g.is_forall():
            subst = {}
            for v in g.quantifier_vars():
                label = v.symbol_name().split("!")[0]
                c = enc.fresh(f"{label}.cex", v.symbol_type())
                witnesses.append((label, c))
                subst[v] = c
            return go(g.arg(0).substitute(subst))
        if g.is_implies():
            return m.Implies(g.arg(0), go(g.arg(1)))
        if g.is_and():
            return m.And([go(a) for a in g.args()])
        return g

    return go(f), witnesses


def _queries(
    enc: Encoder, kernel: core.Kernel, formula: FNode, obligation: FNode, witnesses: list[tuple[str, FNode]]
) -> tuple[Query, ...]:
    queries: list[Query] = [Query(enc.ntid, "blockDim.x")]
    queries += [Query(enc.sizes[c], builtin_name(c.size_term())) for c in ALL_COORDS[1:] if c in enc.live]
    queries += [Query(c, label) for label, c in witnesses]
    for name in kernel.params:
        d = kernel.decl(name)
        if d.kind is core.VarKind.SHARED and d.dim == 0:
            queries.append(Query(enc.symbol(name), d.display_name, "initially", var=name))
    position = {q.term: i for i, q in enumerate(queries)}
    owner = enc.version_owner()
    free = formula.get_free_variables()
    cells = 0
    for sub in _ground_cells(obligation, owner, free):
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
    _replay_queries(enc, kernel, queries, position)
    return tuple(queries)


REPLAY_WINDOW = 24  # literal indices 0..min(this, max(N, 6) + 2) - 1 of every shared array
MAX_REPLAY_CELLS = 48  # per shared array


def _replay_queries(
    enc: Encoder, kernel: core.Kernel, queries: list[Query], position: dict[FNode, int]
) -> None:
    """Extra (unshown) queries from which `interp.replay_cex` builds the initial state: every
    uniform scalar parameter, and the initial cells of every shared array at a small window of
    indices (literals from 0, the thread count, scalar parameters, witnesses and indices of the
    counterexample, each +-1). Locals get nothing (they start unset); other cells default to 0."""
    m = enc.mgr

    def add(term: FNode, query: Query) -> int:
        if term not in position:
            position[term] = len(queries)
            queries.append(query)
        return position[term]

    symbolic: list[FNode] = [enc.sizes[c] for c in ALL_COORDS if not enc.sizes[c].is_constant()]
    for name in kernel.params:
        d = kernel.decl(name)
        if d.dim == 0 and d.kind is core.VarKind.LOCAL:  # an assigned scalar parameter, uniform on entry
            term = m.Function(enc.symbol(name), [m.Int(0)])
            pos = add(m.Int(0), Query(m.Int(0), "", replay=True))
            add(term, Query(term, d.display_name, "initially", True, (pos,), name, replay=True))
            symbolic.append(term)
        elif d.dim == 0:
            symbolic.append(enc.symbol(name))
    for d in kernel.decls:  # __shared__ scalars
        if d.kind is core.VarKind.SHARED and d.dim == 0 and d.role is not core.VarRole.SYNTHETIC:
            term = enc.symbol(d.name)
            add(term, Query(term, d.display_name, "initially", var=d.name, replay=True))
    for q in list(queries):  # witnesses and indices the counterexample mentions
        if (
            q.state is None
            and q.term.get_type() is INT
            and not q.term.is_constant()
            and q.term not in symbolic
        ):
            symbolic.append(q.term)
    fixed = enc.ntid.constant_value() if enc.ntid.is_constant() else 0
    width = min(REPLAY_WINDOW, max(int(fixed), 6) + 2)
    indices: list[FNode] = [m.Int(i) for i in range(width)]
    for t in symbolic:
        indices += [t, m.Minus(t, m.Int(1)), m.Plus(t, m.Int(1))]
    for d in kernel.decls:
        if d.kind is not core.VarKind.SHARED or d.dim == 0 or d.role is core.VarRole.SYNTHETIC:
            continue
        per_dim = indices if d.dim == 1 else indices[: max(2, int(MAX_REPLAY_CELLS ** (1 / d.dim)))]
        for key in itertools.islice(itertools.product(per_dim, repeat=d.dim), MAX_REPLAY_CELLS):
            arg_pos = tuple(add(a, Query(a, "", replay=True)) for a in key)
            term = m.Function(enc.symbol(d.name), list(key))
            add(term, Query(term, d.display_name, "initially", False, arg_pos, d.name, replay=True))


def _ground_cells(f: FNode, owner: dict[FNode, tuple[str, bool]], free: set[FNode]) -> list[FNode]:
    """Program-variable reads in `f` whose arguments mention no bound variable, in order."""
    seen: set[FNode] = set()
    out: list[FNode] = []
    stack = [f]
    while stack:
        g = stack.pop()
        if g in seen:
            continue
        seen.add(g)
        sym = g.function_name() if g.is_function_application() else (g if g.is_symbol() else None)
        if sym is not None and sym in owner and g.get_free_variables() <= free:
            out.append(g)
        stack.extend(reversed(g.args()))
    return out
