"""Exact values of closed pySMT terms (integer bounds of aggregates, the conditions in them).

Shared by the VC side (`smt/sums.py`) and the proof checker (`proof/smt_aggregates.py`),
which must not import the VC generator: a neutral module both import. Exact integer
arithmetic with SMT-LIB's Euclidean `div`, never pySMT's simplifier (which divides in
floating point): a bound decides which cells are written out."""

from __future__ import annotations

from pysmt.fnode import FNode


def constant(f: FNode) -> int | None:
    """The value of a closed integer term made of literals, + - * div and ite, or None."""
    if f.is_int_constant():
        return int(f.constant_value())
    if f.is_ite():
        c = truth(f.arg(0))
        return None if c is None else constant(f.arg(1) if c else f.arg(2))
    if not (f.is_plus() or f.is_minus() or f.is_times() or f.is_div()):
        return None
    vals = [constant(a) for a in f.args()]
    xs = [v for v in vals if v is not None]
    if len(xs) != len(vals):
        return None
    if f.is_plus():
        return sum(xs)
    if f.is_minus():
        return xs[0] - xs[1]
    if f.is_times():
        out = 1
        for v in xs:
            out *= v
        return out
    a, b = xs
    if b == 0:
        return None  # division by zero is unspecified in SMT-LIB
    q = a // abs(b)  # Euclidean: a = b*q + r with 0 <= r < |b|
    return q if b > 0 else -q


def truth(f: FNode) -> bool | None:
    """The value of a closed condition over such terms (not, and, or, <=, <, =), or None."""
    if f.is_bool_constant():
        return bool(f.constant_value())
    if f.is_not():
        t = truth(f.arg(0))
        return None if t is None else not t
    if f.is_and() or f.is_or():
        ts = [truth(a) for a in f.args()]
        if any(t is None for t in ts):
            return None
        return all(ts) if f.is_and() else any(ts)
    if f.is_le() or f.is_lt() or f.is_equals():
        a, b = constant(f.arg(0)), constant(f.arg(1))
        if a is None or b is None:
            return None
        return a <= b if f.is_le() else (a < b if f.is_lt() else a == b)
    return None
