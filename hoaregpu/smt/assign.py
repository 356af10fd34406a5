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
some do (E-SASSIGN). When the index is the thread's own number (`tid` of a kernel whose
threads have no other coordinate, `blockIdx.x * blockDim.x + threadIdx.x` of a 1-D grid:
`numbers_thread`) the writer of n is n itself and no Skolem functions are needed; when it
is that number plus a constant c (`t[tid - 4]`, `thread_offset`), the writer is n - c (with
them, z3 found no counterexample in minutes to a race of `p[gid + 1]` with `p[gid]` over
1024 blocks: it has to invert the mixed radix of the thread number). `tests/smt/test_assign.py`
asks a solver to prove both encodings equivalent. Since the predicate stands on the left
of an implication, W and w are universally quantified by validity, like x'.
"""

from __future__ import annotations

from pysmt.fnode import FNode
from pysmt.typing import BOOL, INT, FunctionType

from .. import core
from ..launch import Coord
from ..terms import Binary, BinOp, BlockCount, BlockId, IntLit, Term, ThreadCount, ThreadId
from .encode import Encoder, Mask

Poly = dict[tuple[str, ...], int]  # a polynomial: product of atoms (sorted) -> coefficient


def _times(a: Poly, b: Poly) -> Poly:
    out: Poly = {}
    for ka, va in a.items():
        for kb, vb in b.items():
            k = tuple(sorted(ka + kb))
            out[k] = out.get(k, 0) + va * vb
    return {k: v for k, v in out.items() if v}


def _plus(a: Poly, b: Poly, sign: int = 1) -> Poly:
    out = dict(a)
    for k, v in b.items():
        out[k] = out.get(k, 0) + sign * v
    return {k: v for k, v in out.items() if v}


def _poly(enc: Encoder, t: Term) -> Poly | None:
    """`t` as a polynomial over the live coordinates and the symbolic sizes (constant sizes
    and collapsed coordinates folded in), when it is made of those with + - *; else None."""
    if isinstance(t, IntLit):
        return {(): t.value} if t.value else {}
    if isinstance(t, ThreadId | BlockId):
        c = Coord(isinstance(t, BlockId), t.axis)
        return {(repr(c),): 1} if c in enc.live else {}
    if isinstance(t, ThreadCount | BlockCount):
        size = enc.sizes[Coord(isinstance(t, BlockCount), t.axis)]
        if size.is_constant():
            value = int(size.constant_value())
            return {(): value} if value else {}
        return {(str(size),): 1}
    if isinstance(t, Binary) and t.op in (BinOp.ADD, BinOp.SUB, BinOp.MUL):
        left, right = _poly(enc, t.left), _poly(enc, t.right)
        if left is None or right is None:
            return None
        if t.op is BinOp.MUL:
            return _times(left, right)
        return _plus(left, right, 1 if t.op is BinOp.ADD else -1)
    return None


def thread_offset(enc: Encoder, indices: tuple[Term, ...]) -> int | None:
    """The constant c when the one index is, at every thread, that thread's number plus c
    (the number: the mixed radix of `GridTerms.coord_at`, live coordinates, the first
    fastest), as a polynomial identity; else None. Then thread n - c, and only it, writes
    cell n (`t[tid - 4]`, `a[tid + 512]`)."""
    if len(indices) != 1 or not enc.live:
        return None
    number: Poly = {}
    for c in reversed(enc.live):  # c + size(c) * (the number over the coordinates after c)
        size = _poly(enc, c.size_term())
        assert size is not None
        number = _plus({(repr(c),): 1}, _times(size, number))
    index = _poly(enc, indices[0])
    if index is None:
        return None
    rest = _plus(index, number, -1)
    if any(k != () for k in rest):
        return None
    return rest.get((), 0)


def numbers_thread(enc: Encoder, indices: tuple[Term, ...]) -> bool:
    """Whether the one index is, at every thread, that thread's number."""
    return thread_offset(enc, indices) == 0


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
    offset = thread_offset(enc, indices)
    if offset is not None:  # the index names the writing thread: n - offset writes cell n
        (n,) = ns
        writer = m.Minus(n, m.Int(offset)) if offset else n
        update = m.Ite(enc.active(mask, writer), enc.at(value, writer), enc.apply(old, ns))
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
