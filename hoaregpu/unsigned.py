"""C's unsigned arithmetic against mathematical integers: the checks that make them agree.

Integers are mathematical; C computes some values in an unsigned type, where a negative
value wraps around 2^w (`int k = -1; k < blockDim.x` is false in C). + - * agree with C
modulo 2^w, so only where C reads an unsigned value as a number (compares, divides, indexes,
widens, stores it into an unsigned variable) does the front end mark it, `Unsigned(e)`
(`hoaregpu/frontend/expressions.py`). Here each mark becomes the obligation `e >= 0` at the
place the expression is evaluated, guarded by the short-circuit conditions on the way to it
(`c && (k < n)` checks `k` only where `c` holds). When every check holds, C's values equal
the mathematical ones (values above the type's maximum — overflow — are a separate,
documented limitation).
"""

from __future__ import annotations

from .core import CheckKind
from .errors import Span
from .terms import Binary, BinOp, Conditional, Fits, IntLit, Term, Unary, UnOp, Unsigned, Var

Check = tuple[Term, Span | None, CheckKind]  # the obligation, where C converts, its kind


def split(t: Term, guard: Term | None = None) -> tuple[Term, list[Check]]:
    """`t` without its Unsigned marks, and the checks its evaluation needs, in order."""
    if isinstance(t, Unsigned | Fits):
        inner, checks = split(t.term, guard)
        low, high = (0, None) if isinstance(t, Unsigned) else (t.low, t.high)
        if not (isinstance(inner, IntLit) and low <= inner.value and (high is None or inner.value <= high)):
            ob: Term = Binary(BinOp.GE, inner, IntLit(low), t.span)
            if high is not None:
                ob = Binary(BinOp.AND, ob, Binary(BinOp.LE, inner, IntLit(high), t.span), t.span)
            if guard is not None:
                ob = Binary(BinOp.IMPLIES, guard, ob, t.span)
            kind = CheckKind.UNSIGNED_WRAP if isinstance(t, Unsigned) else CheckKind.NARROWING
            if isinstance(t, Fits) and t.index:
                kind = CheckKind.INDEX_BOUNDS
            checks.append((ob, t.span, kind))
        return inner, checks
    if isinstance(t, Binary) and t.op in (BinOp.AND, BinOp.OR):
        left, cl = split(t.left, guard)
        taken = left if t.op is BinOp.AND else Unary(UnOp.NOT, left, None)
        right, cr = split(t.right, _and(guard, taken))
        return Binary(t.op, left, right, t.span), cl + cr
    if isinstance(t, Binary):
        left, cl = split(t.left, guard)
        right, cr = split(t.right, guard)
        return Binary(t.op, left, right, t.span), cl + cr
    if isinstance(t, Conditional):
        cond, cc = split(t.cond, guard)
        then, ct = split(t.then, _and(guard, cond))
        orelse, ce = split(t.orelse, _and(guard, Unary(UnOp.NOT, cond, None)))
        return Conditional(cond, then, orelse, t.span), cc + ct + ce
    if isinstance(t, Unary):
        operand, co = split(t.operand, guard)
        return Unary(t.op, operand, t.span), co
    if isinstance(t, Var) and t.indices:
        parts = [split(i, guard) for i in t.indices]
        return Var(t.name, tuple(p for p, _ in parts), t.span), [c for _, cs in parts for c in cs]
    return t, []  # literals, variables, thread ids: no marks (formula-only nodes never get any)


def _and(guard: Term | None, cond: Term) -> Term:
    return cond if guard is None else Binary(BinOp.AND, guard, cond, None)
