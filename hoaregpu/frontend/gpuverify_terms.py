"""Formula builders of GPUVerify's dialect (`gpuverify.py`): GPUVerify's "other thread" as a
quantifier over the block's threads, `__global_*` clauses at every thread, and the
conditions under which a formula's mathematical reading is C's."""

from __future__ import annotations

from ..errors import Span
from ..term_walk import map_children, subterms
from ..terms import (
    At,
    Binary,
    BinOp,
    BlockCount,
    Conditional,
    Fits,
    IntLit,
    Old,
    Quant,
    QuantKind,
    Term,
    ThreadCount,
    ThreadId,
    Unary,
    UnOp,
    Unsigned,
    Var,
)

PLACEHOLDER = "'other"  # "the other thread" while a clause is translated: no C name is this


def _names(t: Term) -> set[str]:
    out: set[str] = set()
    for s in subterms(t):
        if isinstance(s, Var):
            out.add(s.name)
        elif isinstance(s, Quant):
            out |= set(s.names)
    return out


def fresh_name(base: str, t: Term) -> str:
    taken = _names(t)
    name, n = base, 0
    while name in taken:
        n += 1
        name = f"{base}{n}"
    return name


def rename(t: Term, old: str, new: str) -> Term:
    """Rename the scalar variable `old` (only a placeholder, which no C name can be)."""
    if isinstance(t, Var):
        idx = tuple(rename(i, old, new) for i in t.indices)
        return Var(new if t.name == old and not t.indices else t.name, idx, t.span)
    if isinstance(t, Binary):
        return Binary(t.op, rename(t.left, old, new), rename(t.right, old, new), t.span)
    if isinstance(t, Unary):
        return Unary(t.op, rename(t.operand, old, new), t.span)
    if isinstance(t, Conditional):
        return Conditional(
            rename(t.cond, old, new), rename(t.then, old, new), rename(t.orelse, old, new), t.span
        )
    if isinstance(t, At):
        return At(rename(t.term, old, new), rename(t.thread, old, new), t.span)
    if isinstance(t, Old):
        return Old(rename(t.term, old, new), t.span)
    return map_children(t, lambda c: rename(c, old, new))


def for_other_threads(f: Term) -> Term:
    """GPUVerify's two-thread reading: φ holds for this thread and every other thread t' of
    the block, `\\forall int t'; 0 <= t' && t' < blockDim.x ==> t' != tid ==> φ[x @ t']`."""
    fresh = fresh_name("__other_tid", f)  # a C identifier: one the formula does not use
    t = Var(fresh, (), f.span)
    other = Binary(BinOp.NE, t, ThreadId(f.span), f.span)
    return _forall_threads(t, Binary(BinOp.IMPLIES, other, rename(f, PLACEHOLDER, fresh), f.span))


def _forall_threads(t: Var, body: Term) -> Term:
    """`\\forall int t; 0 <= t && t < blockDim.x ==> body`."""
    span = body.span
    low = Binary(BinOp.LE, IntLit(0), t, span)
    in_range = Binary(BinOp.AND, low, Binary(BinOp.LT, t, ThreadCount(span), span), span)
    return Quant(QuantKind.FORALL, (t.name,), Binary(BinOp.IMPLIES, in_range, body, span), span)


def one_block_1d(span: Span, same_group: bool = False) -> Term:
    """`gridDim.x == 1 && gridDim.y == 1 && gridDim.z == 1 && blockDim.y == 1 && blockDim.z == 1`:
    the launch is one block of one dimension, whose threads are 0..blockDim.x-1. (Unread
    coordinates are collapsed in the model, but GPUVerify's other thread may be any of
    the grid's threads, including such copies.) For a formula about the other threads of
    the same group only (`same_group`), the block must be of one dimension, whatever the grid."""
    sizes: list[Term] = [] if same_group else [BlockCount(span, axis) for axis in range(3)]
    sizes += [ThreadCount(span, 1), ThreadCount(span, 2)]
    out: Term | None = None
    for size in sizes:
        one = Binary(BinOp.EQ, size, IntLit(1), span)
        out = one if out is None else Binary(BinOp.AND, out, one, span)
    assert out is not None
    return out


def at_every_thread(name: str, f: Term) -> Term:
    """`__global_*(φ)`: φ at every thread of the block, active or not."""
    t = Var(name, (), f.span)
    return _forall_threads(t, At(f, t, f.span))


def with_c_checks(f: Term, hypothesis: bool) -> Term:
    """The formula read over mathematical integers, with the conditions under which that is
    C's reading (no unsigned value read as a number is negative, no narrow store truncates):
    a premise of a hypothesis, a conjunct of an obligation. A condition inside the right of
    `&&`, `||`, `__implies` or a branch of `?:` is needed only where that part decides the
    formula's value, so it is guarded by the left / the condition (`tid > 0 ==> tid - 1 >= 0`
    for `__implies(tid > 0, a[tid - 1] < a[tid])`). Then an obligation that holds makes C's
    formula true, and C's formula true makes a hypothesis true: sound both ways."""
    body, checks = _strip_marks(f)
    if not checks:
        return body
    cond = checks[0]
    for c in checks[1:]:
        cond = Binary(BinOp.AND, cond, c, c.span)
    return Binary(BinOp.IMPLIES if hypothesis else BinOp.AND, cond, body, f.span)


def _strip_marks(t: Term) -> tuple[Term, list[Term]]:
    if isinstance(t, Unsigned | Fits):
        inner, checks = _strip_marks(t.term)
        low = 0 if isinstance(t, Unsigned) else t.low
        ob: Term = Binary(BinOp.GE, inner, IntLit(low), t.span)
        if isinstance(t, Fits):
            ob = Binary(BinOp.AND, ob, Binary(BinOp.LE, inner, IntLit(t.high), t.span), t.span)
        return inner, [*checks, ob]
    if isinstance(t, Var) and t.indices:
        parts = [_strip_marks(i) for i in t.indices]
        return Var(t.name, tuple(p for p, _ in parts), t.span), [c for _, cs in parts for c in cs]
    if isinstance(t, Binary):
        (a, ca), (b, cb) = _strip_marks(t.left), _strip_marks(t.right)
        if t.op in (BinOp.AND, BinOp.IMPLIES):
            cb = _guarded(a, cb)
        elif t.op is BinOp.OR:
            cb = _guarded(Unary(UnOp.NOT, a, t.span), cb)
        return Binary(t.op, a, b, t.span), ca + cb
    if isinstance(t, Unary):
        a, ca = _strip_marks(t.operand)
        return Unary(t.op, a, t.span), ca
    if isinstance(t, Conditional):
        (c, cc), (a, ca), (b, cb) = _strip_marks(t.cond), _strip_marks(t.then), _strip_marks(t.orelse)
        ca, cb = _guarded(c, ca), _guarded(Unary(UnOp.NOT, c, t.span), cb)
        return Conditional(c, a, b, t.span), cc + ca + cb
    if isinstance(t, At):  # evaluated at the other thread: so are its checks
        a, ca = _strip_marks(t.term)
        return At(a, t.thread, t.span), [At(c, t.thread, c.span) for c in ca]
    if isinstance(t, Old):
        a, ca = _strip_marks(t.term)
        return Old(a, t.span), [Old(c, c.span) for c in ca]
    return t, []


def _guarded(guard: Term, checks: list[Term]) -> list[Term]:
    return [Binary(BinOp.IMPLIES, guard, c, c.span) for c in checks]
