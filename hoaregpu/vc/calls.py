"""Weakest preconditions of the calls the verifier does not look into (`core.Opaque` with
`declared_only` or `atomic`; calls through a contract are `wp.wp_opaque`).

A function declared without a body: every local it may change gets arbitrary new values at
the active threads (the others keep theirs), every array it may change gets arbitrary new
contents, unless no thread is active (then nothing is called):

    {∀x̄'. frame(x̄', m) ∧ (none(m) → ā' = ā) → Q[x̄'/x̄, ā'/ā]} m ⇒ f(ē) {Q}

An atomic `r = atomicOp(&a[ē], v̄)`: the active threads' read-modify-writes are serialised
in an unspecified order. When the active threads address distinct cells (D) the order does
not matter and the step is exactly the parallel assignments `r := a[ē]; a[ē] := new(a[ē], v̄)`
(`hoaregpu.atomics.new_value`, H-ASSIGN's update form). Otherwise it is over-approximated:
the cells the active threads address get arbitrary values, their results are arbitrary. So

    hyp = frame(a', cells of m) ∧ frame(r', m) ∧ (D → assign(a', ...) ∧ assign(r', ...))

with a' named `hg!atomic!N`: a VC after an atomic depends on the over-approximation
(`hoaregpu.smt.approx`), so its refutation counts only when execution confirms it
(`driver.settle_approximate`); its proof holds for every order, the exact one included.
"""

from __future__ import annotations

from pysmt.fnode import FNode
from pysmt.typing import INT

from .. import core
from ..atomics import new_value
from ..smt import approx
from ..smt.assign import assign_update
from ..smt.encode import Encoder, Mask
from ..terms import Var
from .goals import GImp, Goal, rename

approx.register("atomic", "an atomic operation on cells several active threads may address")


def wp_declared_only(stmt: core.Opaque, mask: Mask, post: Goal, enc: Encoder) -> Goal:
    from .wp import _frame

    assigned = sorted(core.assigned_vars(stmt))
    havoc = {enc.symbol(x): enc.fresh_like(x) for x in assigned}
    frames = []
    for x in assigned:
        new = havoc[enc.symbol(x)]
        if enc.kernel.decl(x).kind is core.VarKind.LOCAL:
            frames.append(_frame(enc, x, new, mask))
        else:
            frames.append(enc.mgr.Implies(enc.none_active(mask), _same(enc, x, new)))
    return GImp(enc.mgr.And(frames), rename(post, havoc, enc.env))


def _same(enc: Encoder, name: str, new: FNode) -> FNode:
    m = enc.mgr
    ns = [enc.fresh("n", INT) for _ in range(enc.kernel.decl(name).dim)]
    eq = m.Equals(enc.apply(new, ns), enc.apply(enc.symbol(name), ns))
    return m.ForAll(ns, eq) if ns else eq


def wp_atomic(stmt: core.Opaque, mask: Mask, post: Goal, enc: Encoder) -> Goal:
    from .wp import _frame

    a = stmt.atomic
    assert a is not None
    m = enc.mgr
    decl = enc.kernel.decl(a.target)
    old_t, old_r = enc.symbol(a.target), enc.symbol(a.result)
    new_t = enc.fresh(approx.PREFIX + "atomic", enc.var_type(decl))
    enc._versions[new_t] = a.target  # a version of the array, like fresh_like's (counterexamples)
    new_r = enc.fresh_like(a.result)
    cell = Var(a.target, a.indices, stmt.span)
    value = new_value(a.op, cell, a.operands, a.bits, a.floating, stmt.span)
    exact = m.And(
        assign_update(enc, new_t, mask, a.target, a.indices, value),
        assign_update(enc, new_r, mask, a.result, (), cell),
    )

    def addr(thread: FNode) -> list[FNode]:
        return [enc.at(e, thread) for e in a.indices]

    def same_cell(xs: list[FNode], ys: list[FNode]) -> FNode:
        return m.And([m.Equals(x, y) for x, y in zip(xs, ys, strict=True)])

    i, j, k = (enc.fresh(n, INT) for n in ("i", "j", "k"))
    distinct = m.ForAll(
        [i, j],
        m.Implies(
            m.And(enc.active(mask, i), enc.active(mask, j), m.Not(m.Equals(i, j))),
            m.Not(same_cell(addr(i), addr(j))),
        ),
    )
    ns = [enc.fresh("n", INT) for _ in range(decl.dim)]
    changed = m.Not(m.Equals(enc.apply(new_t, ns), enc.apply(old_t, ns)))
    addressed = m.Exists([k], m.And(enc.active(mask, k), same_cell(addr(k), ns)))
    frame_t = m.Implies(changed, addressed)
    hyp = m.And(
        m.ForAll(ns, frame_t) if ns else frame_t,
        _frame(enc, a.result, new_r, mask),
        m.Implies(distinct, exact),
    )
    return GImp(hyp, rename(post, {old_t: new_t, old_r: new_r}, enc.env))
