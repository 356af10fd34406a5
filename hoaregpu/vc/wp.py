"""Weakest preconditions over the rules of Fig. 2, one function per rule.

`wp(P, m, Q)` returns a goal φ with ⊢ {φ} m ⇒ P {Q}. Rules used (paper names):
H-SKIP, H-SYNC in the strict form of §7 (barrier divergence is an obligation of its own),
H-SEQ, H-ASSIGN (with x' fresh, `assign_update`), H-IF (z fresh, branches in sequence
under m && z then m && !z: Q is threaded through both, never duplicated), H-WHILE (with
H-CONSEQ at entry and exit), and H-CONSEQ for `assert`/`assume`.

Loops: a VC for the body quantifies the variables the loop assigns afresh (they are
renamed to new symbols) and keeps what is known of the others, which the loop does not
change; this is H-WHILE with the invariant strengthened by those facts, as Boogie does.
"""

from __future__ import annotations

from dataclasses import dataclass

from pysmt.fnode import FNode
from pysmt.typing import INT

from .. import core
from ..errors import Span
from ..smt.assign import assign_update
from ..smt.encode import Encoder, Mask
from .calls import wp_atomic, wp_declared_only
from .goals import GImp, GLeaf, Goal, conj, rename
from .kinds import Origin, VcKind


@dataclass
class WpContext:
    enc: Encoder
    default_span: Span

    def span(self, s: Span | None) -> Span:
        return s if s is not None else self.default_span


def wp(stmt: core.Stmt, mask: Mask, post: Goal, ctx: WpContext) -> Goal:
    if isinstance(stmt, core.Skip):
        return wp_skip(post)
    if isinstance(stmt, core.Sync):
        return wp_sync(stmt, mask, post, ctx)
    if isinstance(stmt, core.Seq):
        return wp_seq(stmt, mask, post, ctx)
    if isinstance(stmt, core.Assign):
        return wp_assign(stmt, mask, post, ctx)
    if isinstance(stmt, core.If):
        return wp_if(stmt, mask, post, ctx)
    if isinstance(stmt, core.While):
        return wp_while(stmt, mask, post, ctx)
    if isinstance(stmt, core.Assert):
        return wp_assert(stmt, mask, post, ctx)
    if isinstance(stmt, core.Assume):
        return wp_assume(stmt, mask, post, ctx)
    if isinstance(stmt, core.Opaque):
        return wp_opaque(stmt, mask, post, ctx)
    raise AssertionError(f"unexpected statement {stmt!r}")


def wp_skip(post: Goal) -> Goal:
    """H-SKIP: {φ} m ⇒ skip {φ}."""
    return post


def wp_sync(stmt: core.Sync, mask: Mask, post: Goal, ctx: WpContext) -> Goal:
    """H-SYNC, strict form (§7): {(all(m) ∨ none(m)) ∧ φ} m ⇒ sync {φ}, per block in a grid;
    for a grid barrier (`grid_group::sync()`) the same rule with the whole grid as the thread
    set: all(m) ∨ none(m) over every thread of every block. (Its ordering of memory across
    blocks needs nothing more here: the model runs the grid in lockstep, hoaregpu.grid.)

    With m = T the side condition all(T) holds by definition, so no obligation is made."""
    if mask.is_all:
        return post
    enc = ctx.enc
    uniform = enc.grid_uniform(mask) if stmt.grid else enc.barrier_uniform(mask)
    rule = "H-SYNC (strict, §7, over the grid)" if stmt.grid else "H-SYNC (strict, §7)"
    origin = Origin(VcKind.BARRIER_DIVERGENCE, ctx.span(stmt.span), rule)
    return conj(GLeaf(uniform, origin), post)


def wp_seq(stmt: core.Seq, mask: Mask, post: Goal, ctx: WpContext) -> Goal:
    """H-SEQ: the postcondition of each statement is the precondition of the next."""
    goal = post
    for s in reversed(stmt.stmts):
        goal = wp(s, mask, goal, ctx)
    return goal


def wp_assign(stmt: core.Assign, mask: Mask, post: Goal, ctx: WpContext) -> Goal:
    """H-ASSIGN: {∀x'. assign(x', m, x, ē, e) → φ[x'/x]} m ⇒ x[ē] := e {φ}.

    x' is a fresh symbol; validity quantifies it universally (a ∀ over a function symbol
    is not something every solver front end accepts)."""
    enc = ctx.enc
    new = enc.fresh_like(stmt.target)
    renamed = rename(post, {enc.symbol(stmt.target): new}, enc.env)
    return GImp(assign_update(enc, new, mask, stmt.target, stmt.indices, stmt.value), renamed)


def wp_if(stmt: core.If, mask: Mask, post: Goal, ctx: WpContext) -> Goal:
    """H-IF: {φ ∧ e = z} m && z ⇒ P {ψ} and {ψ} m && !z ⇒ Q {χ} give {φ} m ⇒ if e then P else Q {χ}."""
    enc = ctx.enc
    z = enc.fresh_thread_pred("z")
    after_else = wp(stmt.orelse, mask.conj(z, False), post, ctx)
    after_then = wp(stmt.then, mask.conj(z, True), after_else, ctx)
    return GImp(enc.define_thread_pred(z, stmt.cond), after_then)


def wp_while(stmt: core.While, mask: Mask, post: Goal, ctx: WpContext) -> Goal:
    """H-WHILE: {I ∧ e = z} m && z ⇒ P {I} gives {I} m ⇒ while e do P {I ∧ none(m && e)},
    with H-CONSEQ: the precondition must imply I (entry), I ∧ none(m && e) the postcondition.

    Each invariant clause is read at the loop's mask m (a global clause says nothing when
    no thread reaches the loop, as for assert/assume) and is its own obligation."""
    enc = ctx.enc
    clauses = [(inv, enc.formula_active(inv.term, mask)) for inv in stmt.invariants]
    invariant = enc.mgr.And([f for _, f in clauses])

    def obligations(kind: VcKind) -> Goal:
        leaves = [GLeaf(f, Origin(kind, inv.span, "H-WHILE")) for inv, f in clauses]
        return conj(*leaves) if leaves else conj()

    z = enc.fresh_thread_pred("z")
    preserved = wp(stmt.body, mask.conj(z, True), obligations(VcKind.LOOP_INVARIANT_PRESERVED), ctx)
    body = GImp(invariant, GImp(enc.define_thread_pred(z, stmt.cond), preserved))
    exit_ = GImp(invariant, GImp(enc.none_active(mask, stmt.cond), post))
    assigned = sorted(core.assigned_vars(stmt.body))
    havoc = {enc.symbol(x): enc.fresh_like(x) for x in assigned}
    after_entry = rename(conj(body, exit_), havoc, enc.env)
    frame = enc.mgr.And([_frame(enc, x, havoc[enc.symbol(x)], mask) for x in assigned if not mask.is_all])
    return conj(obligations(VcKind.LOOP_INVARIANT_ENTRY), GImp(frame, after_entry))


def _frame(enc: Encoder, name: str, new: FNode, mask: Mask) -> FNode:
    """A loop under mask m runs its body only at threads of m (E-WHILETRUE, E-LASSIGN):
    the locals of every other thread keep their values."""
    d = enc.kernel.decl(name)
    if d.kind is not core.VarKind.LOCAL:
        return enc.mgr.TRUE()
    m = enc.mgr
    t = enc.fresh("t", INT)
    ns = [enc.fresh("n", INT) for _ in range(d.dim)]
    args = [t, *ns]
    same = m.Equals(m.Function(new, args), m.Function(enc.symbol(name), args))
    return m.ForAll(args, m.Implies(m.Not(enc.mask_at(mask, t)), same))


def wp_opaque(stmt: core.Opaque, mask: Mask, post: Goal, ctx: WpContext) -> Goal:
    """A call through a contract (§7): {∀x̄'. frame(x̄', m) → Q[x̄'/x̄]} m ⇒ f(ē) {Q}, x̄ the
    locals f's body assigns. The `assume` of f's `ensures` after it says what they hold; f's
    body is verified on its own (it writes no memory and has no barrier)."""
    enc = ctx.enc
    if stmt.atomic is not None:
        return wp_atomic(stmt, mask, post, enc)
    if stmt.declared_only:
        return wp_declared_only(stmt, mask, post, enc)
    assigned = sorted(core.assigned_vars(stmt.body))
    havoc = {enc.symbol(x): enc.fresh_like(x) for x in assigned}
    frame = enc.mgr.And([_frame(enc, x, havoc[enc.symbol(x)], mask) for x in assigned])
    return GImp(frame, rename(post, havoc, enc.env))


def wp_assert(stmt: core.Assert, mask: Mask, post: Goal, ctx: WpContext) -> Goal:
    """`assert φ` (H-CONSEQ): φ must hold at the active threads; then it is assumed.

    Both read φ with `formula_active`: under an empty mask the assertion is no obligation
    and no fact (README, "Specification part")."""
    f = ctx.enc.formula_active(stmt.formula.term, mask)
    origin = Origin(VcKind(stmt.check.value), stmt.formula.span, "H-CONSEQ")
    return conj(GLeaf(f, origin), GImp(f, post))


def wp_assume(stmt: core.Assume, mask: Mask, post: Goal, ctx: WpContext) -> Goal:
    """`assume φ` (H-CONSEQ with a stronger precondition): φ → Q, with φ read at the active
    threads only (a global φ under mask m is `(∃t ∈ m) → φ`, see `formula_active`)."""
    return GImp(ctx.enc.formula_active(stmt.formula.term, mask), post)
