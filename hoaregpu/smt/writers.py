"""Which thread writes a cell, as a term, when a store's indices say (for `assign.assign_update`).

H-ASSIGN's update needs, for each cell n̄, whether an active thread writes it and which one.
In general that writer is a Skolem function (`assign.py`), which the solver must invert
through the index expressions: over a multi-block grid z3 found no counterexample in
minutes to a race of `p[gid + 1]` with `p[gid]`, and planted bugs in tiled kernels stayed
undecided. But the usual stores of GPU code name their writer: `a[gid]`, `t[tid - 4]`,
`s[threadIdx.y][threadIdx.x]`, `tile[ty][tx + 1]`, `c[row * n + col]` of a 2-D grid. There
each live coordinate c (`launch.Coord`) occurs in exactly one index, in a *digit* of a
mixed-radix number: index = k + s·Σ wᵢ·cᵢ with weights 1, size(c₀), size(c₀)·size(c₁), ...,
k free of coordinates and s a constant (1, or a stride: `t[2 * tid + 1]`, the tree steps'
`t[off * (2 * tid + 2) - 1]` with `off` unrolled to a constant). Given a cell n̄, the
digits of (nⱼ - kⱼ) div s (`div`/`mod` by the sizes) are the only coordinates whose
thread can write n̄; that thread w(n̄) is a term, and

    x'(n̄) = ite(w(n̄) ∈ m ∧ ē@w(n̄) = n̄, e@w(n̄), x(n̄))

is Definition 3.5's update: if an active thread t writes n̄, the digits of n̄ are t's
coordinates, so w(n̄) = t; if the condition holds, w(n̄) is an active thread writing n̄ (the
indices that are not digits, too, are checked there). `tests/smt/test_assign.py` asks a solver
to prove the forms equivalent.

A coordinate that no index holds may be pinned by the mask instead: a store under
`if (threadIdx.x == 0)` (a halo cell `s[0]`, a block's result `out[blockIdx.x]`) is made
by the thread whose coordinate is that constant, if by any (`pinned`: a conjunct `c == k`
of the condition of a positive literal z of the mask, so an active t has c(t) = k).

The thread number plus a constant (`a[blockIdx.x * blockDim.x + threadIdx.x + c]`, any
sizes) needs no `div` at all: w = n - c. Other digit stores are recognised only when every
live size that divides is a constant: `div`/`mod` by a symbolic size is nonlinear, and the
Skolem form is then kept. The outermost live coordinate's size divides nothing (its digit is
the quotient, and the thread number composes it without a modulus), so it may be open: a
grid 2 blocks wide with any number of block rows (`gridDim.y`) names `c[row * 32 + col]`'s
writer.
"""

from __future__ import annotations

from dataclasses import dataclass

from pysmt.fnode import FNode

from ..launch import Coord
from ..term_walk import conjuncts
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


def poly(enc: Encoder, t: Term) -> Poly | None:
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
        left, right = poly(enc, t.left), poly(enc, t.right)
        if left is None or right is None:
            return None
        if t.op is BinOp.MUL:
            return _times(left, right)
        return _plus(left, right, 1 if t.op is BinOp.ADD else -1)
    return None


def _size_poly(enc: Encoder, c: Coord) -> Poly:
    size = poly(enc, c.size_term())
    assert size is not None
    return size


@dataclass(frozen=True)
class _Digits:
    """One index as k + Σ wᵢ·cᵢ: its coordinates lowest digit first, and k (an integer)."""

    coords: tuple[Coord, ...]
    offset: int
    scale: int = 1  # a constant factor of every weight: `t[2 * tid + 1]`, `t[off * (2 * tid + 2) - 1]`


def _digits(enc: Encoder, p: Poly, taken: set[Coord]) -> _Digits | None:
    """`p` as a mixed-radix number of live coordinates not in `taken`, plus an integer."""
    names = {repr(c): c for c in enc.live}
    weights: dict[Coord, Poly] = {}
    for mono, k in p.items():
        coords = [names[a] for a in mono if a in names]
        if not coords:
            continue
        if len(coords) != 1 or coords[0] in taken or coords[0] in weights:
            return None  # a product of coordinates, or a coordinate twice
        rest = list(mono)
        rest.remove(repr(coords[0]))
        weights[coords[0]] = {tuple(rest): k}
    offset = {m: k for m, k in p.items() if not any(a in names for a in m)}
    if not weights or set(offset) - {()}:
        return None  # no coordinate, or a symbolic offset
    # the lowest digit's weight is 1, or a constant factor of them all (a strided store)
    scales = [w[()] for w in weights.values() if set(w) == {()}]
    scale = min(scales, key=abs) if scales else 1
    order: list[Coord] = []
    want: Poly = {(): scale}
    while weights:
        nxt = next((c for c, w in weights.items() if w == want), None)
        if nxt is None:
            return None  # weights that are not 1, size(c₀), size(c₀)·size(c₁), ...
        order.append(nxt)
        want = _times(want, _size_poly(enc, nxt))
        del weights[nxt]
    return _Digits(tuple(order), offset.get((), 0), scale)


@dataclass(frozen=True)
class Writer:
    """The one thread that may write cell n̄ (`writer_of`)."""

    number: FNode  # its thread number, a term in n̄
    condition: FNode  # it exists, is active and writes n̄ (with the mask)


def pinned(enc: Encoder, mask: Mask) -> dict[Coord, int]:
    """The live coordinates that `mask` fixes: `c == k` (k an integer) is a conjunct of the
    condition e of a positive literal z, and z(t) ⟺ e@t for every thread t (H-IF, H-WHILE)."""
    out: dict[Coord, int] = {}
    for z, positive in mask.literals:
        cond = enc.pred_conds.get(z) if positive else None
        for conj in conjuncts(cond) if cond is not None else []:
            if not (isinstance(conj, Binary) and conj.op is BinOp.EQ):
                continue
            for coord, value in ((conj.left, conj.right), (conj.right, conj.left)):
                p = poly(enc, value)
                if isinstance(coord, ThreadId | BlockId) and p is not None and set(p) <= {()}:
                    c = Coord(isinstance(coord, BlockId), coord.axis)
                    if c in enc.live:
                        out.setdefault(c, p.get((), 0))
    return out


def writer_of(enc: Encoder, indices: tuple[Term, ...], ns: list[FNode], mask: Mask) -> Writer | None:
    """The writer of cell `ns` of a store at `indices` by the threads of `mask`, when the
    indices, and the coordinates the mask pins, name it (module docstring); None when they do not."""
    if not enc.live:
        return None
    m = enc.mgr
    polys = [poly(enc, e) for e in indices]
    digits: dict[int, _Digits] = {}
    taken: set[Coord] = set()
    for j, p in enumerate(polys):
        d = _digits(enc, p, taken) if p is not None else None
        if d is not None:
            digits[j] = d
            taken.update(d.coords)
    fixed = {c: k for c, k in pinned(enc, mask).items() if c not in taken} if taken != set(enc.live) else {}
    if taken | set(fixed) != set(enc.live):
        return None
    if len(indices) == 1 and not fixed and digits[0].coords == enc.live:  # the thread number plus a constant
        n, d = ns[0], digits[0]
        w = m.Minus(n, m.Int(d.offset)) if d.offset else n
        if d.scale == 1:
            return Writer(w, enc.active(mask, w))
        # times a constant: the cells between two threads' have no writer (checked at w)
        w = m.Div(w, m.Int(d.scale))
        return Writer(w, m.And(enc.active(mask, w), m.Equals(enc.at(indices[0], w), n)))
    # div/mod by symbolic sizes would be nonlinear (the Skolem writer is kept then); the size of
    # the outermost live coordinate is no divisor, nor is the size of an index's highest digit,
    # so those may be symbolic (a grid with an open number of block rows)
    constant = {c for c in enc.live if enc.sizes[c].is_constant()}
    if not set(enc.live[:-1]) <= constant or any(not set(d.coords[:-1]) <= constant for d in digits.values()):
        return None
    coords: dict[Coord, FNode] = {c: m.Int(k) for c, k in fixed.items()}
    for j, d in digits.items():
        v = m.Minus(ns[j], m.Int(d.offset)) if d.offset else ns[j]
        v = m.Div(v, m.Int(d.scale)) if d.scale != 1 else v
        weight = 1
        for i, c in enumerate(d.coords):
            digit = m.Div(v, m.Int(weight)) if weight != 1 else v
            if i < len(d.coords) - 1:  # a lower digit: modulo its size (a constant)
                size = int(enc.sizes[c].constant_value())
                digit = m.Minus(digit, m.Times(m.Int(size), m.Div(digit, m.Int(size))))
                weight *= size
            coords[c] = digit
    w = enc.compose(coords)
    # every index checked at w, the digits' too: implied by the digits' ranges, but z3 finds
    # the planted race of a tiled kernel in seconds this way and not in minutes with ranges
    writes = [m.Equals(enc.at(e, w), n) for e, n in zip(indices, ns, strict=True)]
    return Writer(w, m.And(enc.active(mask, w), m.And(writes)))
