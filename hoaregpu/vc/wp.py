"""VC generation over the rules of Fig. 2, one function per rule, run forward.

The VCs are those of weakest preconditions: `wp(P, m, Q)` with ⊢ {wp} m ⇒ P {Q}, split
into one implication per obligation. They are computed forward, in passive (SSA) form,
which gives the same VCs in time linear in the program:

- H-ASSIGN `{∀x'. assign(x', m, x, ē, e) → φ[x'/x]} m ⇒ x[ē] := e {φ}`: instead of renaming
  x to x' in everything after the assignment (the postcondition built so far: quadratic
  when done for every assignment), the generator keeps the current version of every
  variable (`Encoder.symbol`), adds the hypothesis `assign_update(x', m, x, ē, e)` (reading
  the old version) and makes x' current. What follows is encoded with x' directly: the
  renaming WP would do is done once, by construction. x' is universally quantified by the
  VC's validity, as in WP.
- H-IF needs no join: the lockstep logic runs both branches in sequence, under m && z then
  m && !z, so Q is threaded through both (never duplicated) and one state flows through.
- H-WHILE: the invariant's entry obligations in the current state; then fresh versions for
  the variables the body assigns (with the frame of the inactive threads' locals); then the
  body (under the invariant and z's definition, mask m && z) with the preserved
  obligations at its end; then, back at the loop head's state, the continuation under the
  invariant and none(m && e).
- H-SEQ: statements in order; H-SKIP nothing; H-SYNC (strict, §7) an obligation;
  H-CONSEQ for `assert` (obligation, then hypothesis) and `assume` (hypothesis).

Hypotheses form a persistent path (`goals.Hyp`) shared by every obligation under it. VCs
come out in program order, which is the order of the leaves of the backward WP goal, and
each has the hypotheses WP would put above it, in the same order; only the names of fresh
symbols differ. Work is an explicit stack (`VcGen.later`): no recursion on the program's
nesting.

Loops: a VC for the body quantifies the variables the loop assigns afresh (they get new
versions) and keeps what is known of the others, which the loop does not change; this is
H-WHILE with the invariant strengthened by those facts, as Boogie does.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pysmt.fnode import FNode

from .. import core
from ..smt.assign import assign_update
from ..smt.encode import Mask
from .calls import vc_atomic, vc_declared_only
from .kinds import Origin, VcKind
from .passive import Task, VcGen, frame, rename


def step(stmt: core.Stmt, mask: Mask, g: VcGen) -> None:
    """The rule for `stmt`'s kind (`RULES`, below the rules)."""
    rule = RULES.get(type(stmt))
    if rule is None:
        raise AssertionError(f"unexpected statement {stmt!r}")
    rule(stmt, mask, g)


def vc_skip(stmt: core.Skip, mask: Mask, g: VcGen) -> None:
    """H-SKIP: {φ} m ⇒ skip {φ}."""


def vc_sync(stmt: core.Sync, mask: Mask, g: VcGen) -> None:
    """H-SYNC, strict form (§7): {(all(m) ∨ none(m)) ∧ φ} m ⇒ sync {φ}, per block in a grid;
    for a grid barrier (`grid_group::sync()`) the same rule with the whole grid as the thread
    set: all(m) ∨ none(m) over every thread of every block. (Its ordering of memory across
    blocks needs nothing more here: the model runs the grid in lockstep, hoaregpu.grid.)

    With m = T the side condition all(T) holds by definition, so no obligation is made."""
    if mask.is_all:
        return
    enc = g.enc
    uniform = enc.grid_uniform(mask) if stmt.grid else enc.barrier_uniform(mask)
    rule = "H-SYNC (strict, §7, over the grid)" if stmt.grid else "H-SYNC (strict, §7)"
    g.prove(uniform, Origin(VcKind.BARRIER_DIVERGENCE, g.span(stmt.span), rule))


def vc_seq(stmt: core.Seq, mask: Mask, g: VcGen) -> None:
    """H-SEQ: the postcondition of each statement is the precondition of the next."""
    g.later(*(_step_task(s, mask, g) for s in stmt.stmts))


def _step_task(stmt: core.Stmt, mask: Mask, g: VcGen) -> Task:
    return lambda: step(stmt, mask, g)


def vc_assign(stmt: core.Assign, mask: Mask, g: VcGen) -> None:
    """H-ASSIGN: {∀x'. assign(x', m, x, ē, e) → φ[x'/x]} m ⇒ x[ē] := e {φ}.

    x' is a fresh symbol, defined by the hypothesis and current from here on (φ[x'/x]);
    validity quantifies it universally (a ∀ over a function symbol is not something every
    solver front end accepts)."""
    enc = g.enc
    new = enc.fresh_like(stmt.target)
    g.assume(assign_update(enc, new, mask, stmt.target, stmt.indices, stmt.value))
    enc.set_version(stmt.target, new)


def vc_if(stmt: core.If, mask: Mask, g: VcGen) -> None:
    """H-IF: {φ ∧ e = z} m && z ⇒ P {ψ} and {ψ} m && !z ⇒ Q {χ} give {φ} m ⇒ if e then P else Q {χ}."""
    enc = g.enc
    z = enc.fresh_thread_pred("z")
    g.assume(enc.define_thread_pred(z, stmt.cond))
    g.later(_step_task(stmt.then, mask.conj(z, True), g), _step_task(stmt.orelse, mask.conj(z, False), g))


def vc_while(stmt: core.While, mask: Mask, g: VcGen) -> None:
    """H-WHILE: {I ∧ e = z} m && z ⇒ P {I} gives {I} m ⇒ while e do P {I ∧ none(m && e)},
    with H-CONSEQ: the precondition must imply I (entry), I ∧ none(m && e) the postcondition.

    Each invariant clause is read at the loop's mask m (a global clause says nothing when
    no thread reaches the loop, as for assert/assume) and is its own obligation, in the
    state where it is proved or assumed."""
    enc = g.enc
    assigned = _assigned(stmt.body)
    before = {x: enc.symbol(x) for x in assigned}
    havoc = g.havoc(assigned)
    framed = enc.mgr.And([frame(enc, x, havoc[x], mask) for x in assigned if not mask.is_all])
    # I is encoded once, at the loop head (after the havoc), and renamed to the state where
    # it is proved: before the loop (entry) and after the body (preserved), as WP renames it.
    g.make_current(havoc)
    clauses = [(inv, enc.formula_active(inv.term, mask)) for inv in stmt.invariants]
    invariant = enc.mgr.And([f for _, f in clauses])

    def invariant_obligations(kind: VcKind, state: dict[str, FNode]) -> None:
        mapping = {havoc[x]: state[x] for x in assigned}
        for inv, f in clauses:
            g.prove(rename(enc.env, f, mapping), Origin(kind, inv.span, "H-WHILE"))

    invariant_obligations(VcKind.LOOP_INVARIANT_ENTRY, before)
    g.assume(framed)
    head_hyps, head_state = g.hyps, enc.mark()
    z = enc.fresh_thread_pred("z")

    def enter_body() -> None:
        g.assume(invariant)
        g.assume(enc.define_thread_pred(z, stmt.cond))

    def leave_body() -> None:
        invariant_obligations(VcKind.LOOP_INVARIANT_PRESERVED, {x: enc.symbol(x) for x in assigned})
        g.hyps = head_hyps  # back at the loop head: the continuation does not see the body
        enc.undo_to(head_state)

    def exit_loop() -> None:
        g.assume(invariant)
        g.assume(enc.none_active(mask, stmt.cond))

    g.later(enter_body, _step_task(stmt.body, mask.conj(z, True), g), leave_body, exit_loop)


def _assigned(body: core.Stmt) -> list[str]:
    """`core.assigned_vars`, sorted, without recursion on the nesting."""
    out: set[str] = set()
    for s in core.statements(body):
        if isinstance(s, core.Assign):
            out.add(s.target)
        elif isinstance(s, core.Opaque):
            out.update(s.havoc)
    return sorted(out)


def vc_opaque(stmt: core.Opaque, mask: Mask, g: VcGen) -> None:
    """A call through a contract (§7): {∀x̄'. frame(x̄', m) → Q[x̄'/x̄]} m ⇒ f(ē) {Q}, x̄ the
    locals f's body assigns. The `assume` of f's `ensures` after it says what they hold; f's
    body is verified on its own (it writes no memory and has no barrier). Body-less calls
    and atomics: `vc.calls`."""
    if stmt.atomic is not None:
        return vc_atomic(stmt, mask, g)
    if stmt.declared_only:
        return vc_declared_only(stmt, mask, g)
    enc = g.enc
    assigned = sorted(core.assigned_vars(stmt.body))
    havoc = g.havoc(assigned)
    g.assume(enc.mgr.And([frame(enc, x, havoc[x], mask) for x in assigned]))
    g.make_current(havoc)


def vc_assert(stmt: core.Assert, mask: Mask, g: VcGen) -> None:
    """`assert φ` (H-CONSEQ): φ must hold at the active threads; then it is assumed.

    Both read φ with `formula_active`: under an empty mask the assertion is no obligation
    and no fact (README, "Specification part")."""
    f = g.enc.formula_active(stmt.formula.term, mask)
    g.prove(f, Origin(VcKind(stmt.check.value), stmt.formula.span, "H-CONSEQ"))
    if stmt.check is not core.CheckKind.DATA_RACE or not _many_fixed_threads(g):
        # a race check at a large fixed thread count is not assumed after it (weaker
        # hypotheses: sound): no later VC needs "no conflict here", and its expansion over
        # every pair of threads would burden every later VC (hoaregpu.races; 26 s -> 6 s on
        # intrinsics_mul24_warpsize at 64 threads). With few threads the fact is cheap and
        # helps: cvc5 refutes race_loop_guard's second race (2 threads) only with it.
        g.assume(f)


RACE_FACT_THREADS = 16  # fixed thread counts above this do not assume a proved race check


def _many_fixed_threads(g: VcGen) -> bool:
    n = g.enc.nthreads
    return bool(n.is_constant() and n.constant_value() > RACE_FACT_THREADS)


def vc_assume(stmt: core.Assume, mask: Mask, g: VcGen) -> None:
    """`assume φ` (H-CONSEQ with a stronger precondition): φ → Q, with φ read at the active
    threads only (a global φ under mask m is `(∃t ∈ m) → φ`, see `formula_active`).

    With `forget` (a barrier invariant's cut, proved just before): {∀x̄'. φ[x̄'/x̄] → Q[x̄'/x̄]}
    forget x̄; assume φ {Q}, x̄ the named variables the kernel writes. A stronger precondition
    than that of `assume φ` (it implies φ → Q: take x̄' = x̄), so proving it is sound
    (H-CONSEQ). What follows refers to x̄' only, so its slices leave the history of x̄ out."""
    written = [x for x in stmt.forget if x in g.written]
    if written:
        g.make_current(g.havoc(written))
    g.assume(g.enc.formula_active(stmt.formula.term, mask))


RULES: dict[type, Callable[[Any, Mask, VcGen], None]] = {
    core.Skip: vc_skip,
    core.Sync: vc_sync,
    core.Seq: vc_seq,
    core.Assign: vc_assign,
    core.If: vc_if,
    core.While: vc_while,
    core.Assert: vc_assert,
    core.Assume: vc_assume,
    core.Opaque: vc_opaque,
}


def obligations(body: core.Stmt, mask: Mask, g: VcGen) -> None:
    """The obligations of `body` under `mask`, from the state and path `g` is in."""
    g.run(body, mask, step)
