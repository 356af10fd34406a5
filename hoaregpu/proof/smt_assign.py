"""`assign(x', m, x, ē, e)` (Definition 3.5) in the checker's translation (proof/smt.py).

Where it must be proved it is the definition literally: every cell is kept unless an
active thread writes it, and then it holds that thread's value. Where it is assumed (a
hypothesis, whose existentials may be Skolemized) it is the equivalent update form that
solvers handle well: x'(n̄) = ite(W(n̄), e@w(n̄), x(n̄)) with fresh W, w, unless the
threads are written out (a fixed count up to MAX_EXPANSION): then the definition itself, a
disjunction over the threads that each instance of n̄ makes ground, is far easier than the
writer w(n̄) (the 4 x 4 tiled multiplication: 0.2 s against no answer in 100 s, where z3
had to find w(n̄) through the `/` and `%` of the grid's coordinates). For a shared array
written at `tid + c` (c a constant: `a[tid]`, `t[tid - 4]`) the writer of cell n can only be
thread n - c, and for a local each thread writes its own copy: there (one writer per cell)
the update form, with no W, w, is equivalent to the definition and stands for it in both
places: x'(n) = ite(n - c active, e@(n - c), x(n)). The two forms of a side condition's
hypothesis and goal then match term for term (H-IF's consequence `φ[e/z] ∧ e = z → φ`
over a long unrolled remainder, e.g. the Blelloch scan's down-sweep, timed out otherwise).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pysmt.fnode import FNode
from pysmt.typing import BOOL, INT, FunctionType

from ..terms import BinOp
from .formula import AssignP, Bin, F, Tid
from .formula_ops import base_var, int_literal

if TYPE_CHECKING:
    from .smt import Env, Translator


def assign_formula(tr: Translator, f: AssignP, env: Env, pol: int, weak: bool) -> FNode:
    from .smt import Untranslatable  # here: smt.py imports this module

    m = tr.mgr
    x = base_var(f.target)
    if base_var(f.new) != x or x not in tr.kernel.variables:
        raise Untranslatable(f"assign({f.new}, ..., {f.target}, ...) must relate versions of one variable")
    var = tr.kernel.variables[x]
    if len(f.indices) != var.dim:
        raise Untranslatable(f"assign to '{x}' needs {var.dim} indices, not {len(f.indices)}")
    new, old = tr._symbol(f.new, env.fns), tr._symbol(f.target, env.fns)

    def app(s: FNode, args: list[FNode]) -> FNode:
        return m.Function(s, args) if args else s

    def active(i: FNode) -> FNode:
        return m.And(tr.in_range(i), tr._bool(f.mask, env, i, 0, True))

    def idx_at(i: FNode) -> list[FNode]:
        return [tr._iv(e, env, i) for e in f.indices]

    def same(xs: list[FNode], ys: list[FNode]) -> FNode:
        return m.And([m.Equals(a, b) for a, b in zip(xs, ys, strict=True)])

    ns = [tr._fresh("n", INT) for _ in range(var.dim)]
    hypothesis = pol < 0 and not weak
    if var.local:
        i = tr._fresh("i", INT)
        args = [i, *ns]
        writes = m.And(active(i), same(idx_at(i), ns))
        value = tr._iv(f.value, env, i)
        # each thread writes its own copy: the update form is Definition 3.5 (both polarities)
        return m.ForAll(args, m.Equals(app(new, args), m.Ite(writes, value, app(old, args))))
    offset = _tid_offset(f.indices)
    if offset is not None:
        # `x[tid + c]`: cell n has one possible writer, thread n - c (the index is injective),
        # so the update form is Definition 3.5 itself, to prove as to assume
        (n,) = ns
        i = m.Minus(n, m.Int(offset)) if offset else n
        upd = m.Ite(active(i), tr._iv(f.value, env, i), app(old, ns))
        return m.ForAll(ns, m.Equals(app(new, ns), upd))
    if hypothesis and not tr.expands_threads:
        dims = [INT] * var.dim
        written = tr._fresh(f"{x}.W", FunctionType(BOOL, dims) if dims else BOOL)
        writer = tr._fresh(f"{x}.w", FunctionType(INT, dims) if dims else INT)
        marks = tr._threads(
            lambda i: m.Implies(tr._bool(f.mask, env, i, 0, True), app(written, idx_at(i))), True
        )
        w = app(writer, ns)
        has_writer = m.Implies(app(written, ns), m.And(active(w), same(idx_at(w), ns)))
        upd = m.Equals(app(new, ns), m.Ite(app(written, ns), tr._iv(f.value, env, w), app(old, ns)))
        tied = m.And(has_writer, upd)
        return m.And(marks, m.ForAll(ns, tied) if ns else tied)
    nobody = tr._threads(
        lambda i: m.Implies(tr._bool(f.mask, env, i, 0, True), m.Not(same(idx_at(i), ns))), True
    )
    somebody = tr._threads(
        lambda i: m.And(
            tr._bool(f.mask, env, i, 0, True),
            same(idx_at(i), ns),
            m.Equals(app(new, ns), tr._iv(f.value, env, i)),
        ),
        False,
    )
    body = m.Or(m.And(nobody, m.Equals(app(new, ns), app(old, ns))), somebody)
    return m.ForAll(ns, body) if ns else body


def _tid_offset(indices: tuple[F, ...]) -> int | None:
    """c when the indices are one `tid + c` / `tid - c` / `c + tid` / `tid` (c a literal)."""
    if len(indices) != 1:
        return None
    (e,) = indices
    if isinstance(e, Tid):
        return 0
    if not (isinstance(e, Bin) and e.op in (BinOp.ADD, BinOp.SUB)):
        return None
    sign = 1 if e.op is BinOp.ADD else -1
    if isinstance(e.left, Tid):
        c = int_literal(e.right)
        return None if c is None else sign * c
    if isinstance(e.right, Tid) and e.op is BinOp.ADD:
        return int_literal(e.left)
    return None
