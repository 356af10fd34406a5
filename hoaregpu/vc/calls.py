"""VC generation for the calls the verifier does not look into (`core.Opaque` with
`declared_only` or `atomic`; calls through a contract are `wp.vc_opaque`). Each adds a
hypothesis about fresh versions of what the call changes, and makes them current (the
renaming Q[x̄'/x̄] below is done forward, as for H-ASSIGN: `vc.wp`).

A function declared without a body: every local it may change gets arbitrary new values at
the active threads (the others keep theirs), every array it may change gets arbitrary new
contents, unless no thread is active (then nothing is called):

    {∀x̄'. frame(x̄', m) ∧ (none(m) → ā' = ā) → Q[x̄'/x̄, ā'/ā]} m ⇒ f(ē) {Q}

An atomic `r = atomicOp(&a[ē], v̄)`: the active threads' read-modify-writes are serialised
in an unspecified order. When the active threads address distinct cells (D) the order does
not matter and the step is exactly the parallel assignments `r := a[ē]; a[ē] := new(a[ē], v̄)`
(`hoaregpu.atomics.new_value`, H-ASSIGN's update form). Otherwise:

- the array a' is exact where every order gives the same memory and we can say what it is
  (`_exact_array`: Exch, Min, Max, and Add/Sub with a fixed launch of at most FOLD_LIMIT
  threads); elsewhere the cells the active threads address get arbitrary values
  (`frame(a', cells of m) ∧ (D → assign(a', ...))`);
- the result r' is exact only under D (`frame(r', m) ∧ (D → assign(r', ...))`), and left out
  when nothing reads it.

An over-approximated a' or r' is named `hg!atomic!N`: a VC after it depends on the
over-approximation (`hoaregpu.smt.approx`), so its refutation counts only when execution
confirms it (`driver.settle_approximate`); its proof holds for every order.
"""

from __future__ import annotations

from collections.abc import Callable

from pysmt.fnode import FNode
from pysmt.typing import INT

from .. import core
from ..atomics import AtomicOp, new_value
from ..grid import kernel_terms
from ..smt import approx
from ..smt.assign import assign_update
from ..smt.encode import Encoder, Mask
from ..term_walk import subterms
from ..terms import Var
from .passive import VcGen, frame

approx.register("atomic", "an atomic operation on cells several active threads may address")


def vc_declared_only(stmt: core.Opaque, mask: Mask, g: VcGen) -> None:
    enc = g.enc
    assigned = sorted(core.assigned_vars(stmt))
    havoc = g.havoc(assigned)
    frames = []
    for x in assigned:
        new = havoc[x]
        if enc.kernel.decl(x).kind is core.VarKind.LOCAL:
            frames.append(frame(enc, x, new, mask))
        else:
            frames.append(enc.mgr.Implies(enc.none_active(mask), _same(enc, x, new)))
    g.assume(enc.mgr.And(frames))
    g.make_current(havoc)


def _same(enc: Encoder, name: str, new: FNode) -> FNode:
    m = enc.mgr
    ns = [enc.fresh("n", INT) for _ in range(enc.kernel.decl(name).dim)]
    eq = m.Equals(enc.apply(new, ns), enc.apply(enc.symbol(name), ns))
    return m.ForAll(ns, eq) if ns else eq


FOLD_LIMIT = 64  # threads up to which an atomicAdd's total is written out as a sum


def vc_atomic(stmt: core.Opaque, mask: Mask, g: VcGen) -> None:
    enc = g.enc
    a = stmt.atomic
    assert a is not None
    m = enc.mgr
    decl = enc.kernel.decl(a.target)
    old_t = enc.symbol(a.target)
    cell = Var(a.target, a.indices, stmt.span)

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
    facts: list[FNode] = []
    renaming: dict[str, FNode] = {}
    exact_t = _exact_array(enc, a, mask, addr, same_cell)
    if exact_t is not None:
        new_t = enc.fresh_like(a.target)
        facts.append(exact_t(new_t))
    else:  # over-approximated where threads may share a cell
        new_t = enc.fresh(approx.PREFIX + "atomic", enc.var_type(decl))
        enc._versions[new_t] = a.target  # a version of the array, like fresh_like's (counterexamples)
        value = new_value(a.op, cell, a.operands, a.bits, a.floating, stmt.span)
        ns = [enc.fresh("n", INT) for _ in range(decl.dim)]
        changed = m.Not(m.Equals(enc.apply(new_t, ns), enc.apply(old_t, ns)))
        addressed = m.Exists([k], m.And(enc.active(mask, k), same_cell(addr(k), ns)))
        if a.bits is not None:  # an unsigned cell holds a value of its type, whatever the order
            addressed = m.And(addressed, m.GE(enc.apply(new_t, ns), m.Int(0)))
        frame_t = m.Implies(changed, addressed)
        facts.append(m.ForAll(ns, frame_t) if ns else frame_t)
        facts.append(m.Implies(distinct, assign_update(enc, new_t, mask, a.target, a.indices, value)))
    renaming[a.target] = new_t
    if _is_read(enc.kernel, a.result):  # else its value does not matter
        new_r = enc.fresh(approx.PREFIX + "atomic", enc.var_type(enc.kernel.decl(a.result)))
        enc._versions[new_r] = a.result
        facts.append(frame(enc, a.result, new_r, mask))
        facts.append(m.Implies(distinct, assign_update(enc, new_r, mask, a.result, (), cell)))
        if a.bits is not None:  # an unsigned result is not negative, whatever the order
            r = enc.fresh("t", INT)
            nonneg = m.Implies(enc.active(mask, r), m.GE(enc.apply(new_r, [r]), m.Int(0)))
            facts.append(m.Or(distinct, m.ForAll([r], nonneg)))
        renaming[a.result] = new_r
    g.assume(m.And(facts))
    g.make_current(renaming)


def _exact_array(
    enc: Encoder,
    a: core.AtomicUpdate,
    mask: Mask,
    addr: Callable[[FNode], list[FNode]],
    same_cell: Callable[[list[FNode], list[FNode]], FNode],
) -> Callable[[FNode], FNode] | None:
    """The array after the step, exactly, whatever the order, where that is expressible:
    `atomicExch` leaves some addressing thread's value (H-ASSIGN's update form says just that);
    `atomicMin`/`atomicMax` leave the extremum of the old value and the addressing threads'
    values; `atomicAdd`/`atomicSub` with at most FOLD_LIMIT threads add the sum of those
    (modulo 2^w for unsigned cells: wrapping additions commute)."""
    m = enc.mgr
    decl = enc.kernel.decl(a.target)
    old = enc.symbol(a.target)
    v = a.operands[0]
    if a.op is AtomicOp.EXCH:
        return lambda new: assign_update(enc, new, mask, a.target, a.indices, v)
    if a.floating:
        return None
    ns = [enc.fresh("n", INT) for _ in range(decl.dim)]

    def every_cell(body: FNode) -> FNode:
        return m.ForAll(ns, body) if ns else body

    if a.op in (AtomicOp.MIN, AtomicOp.MAX):
        t, u = enc.fresh("t", INT), enc.fresh("u", INT)

        def extremum(new: FNode) -> FNode:
            x, o = enc.apply(new, ns), enc.apply(old, ns)

            def beyond(p: FNode, q: FNode) -> FNode:  # p is at most q (min) / at least q (max)
                return m.LE(p, q) if a.op is AtomicOp.MIN else m.GE(p, q)

            hit_t = m.And(enc.active(mask, t), same_cell(addr(t), ns))
            hit_u = m.And(enc.active(mask, u), same_cell(addr(u), ns))
            bound = m.And(beyond(x, o), m.ForAll([t], m.Implies(hit_t, beyond(x, enc.at(v, t)))))
            reached = m.Or(m.Equals(x, o), m.Exists([u], m.And(hit_u, m.Equals(x, enc.at(v, u)))))
            return every_cell(m.And(bound, reached))

        return extremum
    if a.op in (AtomicOp.ADD, AtomicOp.SUB) and enc.nthreads.is_constant():
        n = enc.nthreads.constant_value()
        if n > FOLD_LIMIT:
            return None

        def total(new: FNode) -> FNode:
            terms = []
            for t in range(n):
                th = m.Int(t)
                hit = m.And(enc.mask_at(mask, th), same_cell(addr(th), ns))
                terms.append(m.Ite(hit, enc.at(v, th), m.Int(0)))
            delta = m.Plus(terms) if terms else m.Int(0)
            o = enc.apply(old, ns)
            value = m.Plus(o, delta) if a.op is AtomicOp.ADD else m.Minus(o, delta)
            if a.bits is not None:
                value = _mod(enc, value, 2**a.bits)
            return every_cell(m.Equals(enc.apply(new, ns), value))

        return total
    return None


def _mod(enc: Encoder, x: FNode, k: int) -> FNode:
    """x mod k (k > 0) in linear arithmetic: x - k * q with q = floor(x / k)."""
    m = enc.mgr
    return m.Minus(x, m.Times(m.Int(k), m.Div(x, m.Int(k))))


def _is_read(kernel: core.Kernel, name: str) -> bool:
    """Whether anything in the kernel reads `name` (an atomic's result nobody reads is free)."""
    return any(isinstance(x, Var) and x.name == name for t in kernel_terms(kernel) for x in subterms(t))
