"""A side condition that holds by substituting a mask variable's definition (no solver).

H-IF and H-WHILE give their premise `φ && \\all(e == z)`; `prove` derives the branch under
`m && z` and takes φ to be the branch's precondition ψ with e for z (z may not occur in φ).
The H-CONSEQ between them is then `ψ[e/z] && \\all(e == z) → ψ`. Over a long remainder (an
unrolled kernel: the whole rest of the program is in ψ) solvers time out on it (the
Blelloch scan's down-sweep: z3 over 280 s), although it is only the substitution of equals.

The rule: `hyp → goal` is valid when hyp has the conjunct `\\all(e == z)` for a mask
variable z, hyp (or one of its conjuncts) is α-equivalent to `goal[e/z]` (`subst_name`),
and every occurrence of z in goal is read at a thread of T:

- inside `\\all(..)` / `\\none(..)`, or any part of `assign(..)`, which evaluate their
  terms at threads i ∈ T only (Definition 3.5);
- inside `φ @ t` where t is bound by `\\forall int t; 0 <= t && t < ntid && ... ==> ...`
  (both range conjuncts at the top of the antecedent): outside T the antecedent is false
  whatever z is, so only t ∈ T matters; or inside `φ @ tid` where the current thread is in T;
- never under `\\old` (the initial state: e there would read other values), never indexed.

Soundness: `\\all(e == z)` says e@i = z@i for every i ∈ T (Definition 3.5), and the
conditions make every replaced occurrence of z one read at such an i, so goal[e/z] and goal
have the same truth value in every state satisfying hyp; z is a mask variable (never a
program variable, never assigned), so no assignment between changes its value.
"""

from __future__ import annotations

from ..terms import BinOp
from .formula import Agg, AllNone, AssignP, At, Bin, F, FnForall, Name, Ntid, Num, Old, Quant, Tid, conjuncts
from .formula_ops import alpha_eq, children, free_names, subst_name


def by_mask_definition(hyp: F, goal: F, masks: set[str] | frozenset[str]) -> bool:
    """Is `hyp → goal` an instance of the rule above?"""
    parts = conjuncts(hyp)
    for d in parts:
        z, e = _definition(d, masks)
        if z is None or e is None or z not in free_names(goal):
            continue
        if not _guarded(goal, z, False, frozenset()):
            continue
        want = subst_name(goal, z, e)
        candidates = [*parts]
        if isinstance(hyp, Bin) and hyp.op is BinOp.AND and hyp.right == d:
            candidates.append(hyp.left)  # `ψ[e/z] && \all(e == z)`: ψ[e/z] may be a conjunction
        if any(alpha_eq(c, want) for c in candidates):
            return True
    return False


def _definition(f: F, masks: set[str] | frozenset[str]) -> tuple[str | None, F | None]:
    """(z, e) for `\\all(e == z)` with z a mask variable."""
    if not (isinstance(f, AllNone) and f.all and isinstance(f.term, Bin) and f.term.op is BinOp.EQ):
        return None, None
    z = f.term.right
    if not (isinstance(z, Name) and not z.indices and z.name in masks):
        return None, None
    return z.name, f.term.left


def _range_guarded(q: Quant) -> set[str]:
    """The names t of `\\forall int t; 0 <= t && t < ntid && ... ==> ...` (t in T in the body)."""
    body = q.body
    if not (q.forall and isinstance(body, Bin) and body.op is BinOp.IMPLIES):
        return set()
    parts = conjuncts(body.left)
    return {
        t
        for t in q.names
        if Bin(BinOp.LE, Num(0), Name(t)) in parts and Bin(BinOp.LT, Name(t), Ntid()) in parts
    }


def _guarded(f: F, z: str, in_t: bool, guards: frozenset[str]) -> bool:
    """Every occurrence of z in f is read at a thread of T (`in_t`: the current thread is)."""
    if z not in free_names(f):
        return True
    if isinstance(f, Name):
        if f.name == z and (f.indices or not in_t):
            return False
        return all(_guarded(i, z, in_t, guards) for i in f.indices)
    if isinstance(f, Old):
        return False  # z occurs in it (checked above)
    if isinstance(f, AllNone):
        return _guarded(f.term, z, True, guards)
    if isinstance(f, AssignP):
        return all(_guarded(c, z, True, guards) for c in children(f))
    if isinstance(f, At):
        th = f.thread
        there = (isinstance(th, Name) and not th.indices and th.name in guards) or (
            isinstance(th, Tid) and in_t
        )
        return _guarded(th, z, in_t, guards) and _guarded(f.term, z, there, guards)
    if isinstance(f, Quant):
        if z in f.names:  # a bound integer named z: not the mask variable
            return True
        inner = (guards - frozenset(f.names)) | _range_guarded(f)
        return _guarded(f.body, z, in_t, inner)
    if isinstance(f, Agg):
        bounds = _guarded(f.low, z, in_t, guards) and _guarded(f.high, z, in_t, guards)
        return bounds and (f.name == z or _guarded(f.body, z, in_t, guards - {f.name}))
    if isinstance(f, FnForall):
        return _guarded(f.body, z, in_t, guards)
    return all(_guarded(c, z, in_t, guards) for c in children(f))
