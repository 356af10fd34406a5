"""The `assign(x', m, x, ē, e)` predicate of H-ASSIGN (Definition 3.5), in two encodings.

`assign_paper` is the literal definition: the specification of the rule. `assign_update`
is the equivalent form the VC generator uses (solver-facts.md: the literal predicate
proves valid VCs but solvers find no counterexamples to false ones). For a shared x it
names, with fresh Skolem functions, which indices are written (W) and by which active
thread (w):

    ∀i ∈ m. W(ē@i)                                 every written index is marked
    ∀n̄. W(n̄) → w(n̄) ∈ m ∧ ē@w(n̄) = n̄              a marked index has an active writer
    ∀n̄. x'(n̄) = ite(W(n̄), e@w(n̄), x(n̄))            the race's winner is that writer

so x'(n̄) is the old value where no active thread writes and one written value where
some do (E-SASSIGN). When the indices name the writing thread (`a[gid]`, `t[tid - 4]`,
`s[threadIdx.y][threadIdx.x]`, `c[row * n + col]`: `writers.writer_of`) its number is a
term of n̄ and no Skolem functions are needed. `tests/smt/test_assign.py` asks a solver to
prove the encodings equivalent. Since the predicate stands on the left
of an implication, W and w are universally quantified by validity, like x'.
"""

from __future__ import annotations

from pysmt.fnode import FNode
from pysmt.typing import BOOL, INT, FunctionType

from .. import core
from ..terms import Term
from .encode import Encoder, Mask
from .writers import writer_of


def _index_vars(enc: Encoder, n: int) -> list[FNode]:
    return [enc.fresh("n", INT) for _ in range(n)]


def _eq_all(enc: Encoder, xs: list[FNode], ys: list[FNode]) -> FNode:
    return enc.mgr.And([enc.mgr.Equals(a, b) for a, b in zip(xs, ys, strict=True)])


def assign_paper(
    enc: Encoder, new: FNode, mask: Mask, target: str, indices: tuple[Term, ...], value: Term
) -> FNode:
    """Definition 3.5, literally."""
    m = enc.mgr
    decl = enc.kernel.decl(target)
    old = enc.symbol(target)
    ns = _index_vars(enc, decl.dim)
    i = enc.fresh("i", INT)
    idx_at_i = [enc.at(e, i) for e in indices]
    if decl.kind is core.VarKind.SHARED:
        nobody = m.ForAll([i], m.Implies(enc.active(mask, i), m.Not(_eq_all(enc, idx_at_i, ns))))
        j = enc.fresh("i", INT)
        idx_at_j = [enc.at(e, j) for e in indices]
        somebody = m.Exists(
            [j],
            m.And(
                enc.active(mask, j),
                _eq_all(enc, idx_at_j, ns),
                m.Equals(enc.apply(new, ns), enc.at(value, j)),
            ),
        )
        body = m.Or(m.And(nobody, m.Equals(enc.apply(new, ns), enc.apply(old, ns))), somebody)
        return m.ForAll(ns, body) if ns else body
    args = [i, *ns]
    writes = m.And(enc.mask_at(mask, i), enc.in_range(i), _eq_all(enc, idx_at_i, ns))
    keep = m.Implies(m.Not(writes), m.Equals(enc.apply(new, args), enc.apply(old, args)))
    put = m.Implies(writes, m.Equals(enc.apply(new, args), enc.at(value, i)))
    return m.ForAll(args, m.And(keep, put))


def assign_update(
    enc: Encoder, new: FNode, mask: Mask, target: str, indices: tuple[Term, ...], value: Term
) -> FNode:
    """The solver-friendly form of `assign(x', m, x, ē, e)` (see the module docstring)."""
    m = enc.mgr
    decl = enc.kernel.decl(target)
    old = enc.symbol(target)
    ns = _index_vars(enc, decl.dim)
    if decl.kind is core.VarKind.LOCAL:
        i = enc.fresh("i", INT)
        args = [i, *ns]
        writes = m.And(enc.active(mask, i), _eq_all(enc, [enc.at(e, i) for e in indices], ns))
        update = m.Ite(writes, enc.at(value, i), enc.apply(old, args))
        return m.ForAll(args, m.Equals(enc.apply(new, args), update))
    named = writer_of(enc, indices, ns, mask)
    if named is not None:  # the indices name the one thread that may write a cell
        update = m.Ite(named.condition, enc.at(value, named.number), enc.apply(old, ns))
        return m.ForAll(ns, m.Equals(enc.apply(new, ns), update))
    written = enc.fresh(f"{target}.W", FunctionType(BOOL, [INT] * decl.dim) if decl.dim else BOOL)
    writer = enc.fresh(f"{target}.w", FunctionType(INT, [INT] * decl.dim) if decl.dim else INT)
    i = enc.fresh("i", INT)
    marks = m.ForAll([i], m.Implies(enc.active(mask, i), enc.apply(written, [enc.at(e, i) for e in indices])))
    w = enc.apply(writer, ns)
    has_writer = m.Implies(
        enc.apply(written, ns),
        m.And(enc.active(mask, w), _eq_all(enc, [enc.at(e, w) for e in indices], ns)),
    )
    update = m.Equals(enc.apply(new, ns), m.Ite(enc.apply(written, ns), enc.at(value, w), enc.apply(old, ns)))
    tied = m.And(has_writer, update)
    return m.And(marks, m.ForAll(ns, tied) if ns else tied)
