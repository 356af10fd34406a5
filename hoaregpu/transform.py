"""The monotonic-loop transform of §4.1.

Soundness of H-WHILE (Theorem 4.6) needs monotonic loops: a thread that has left a loop
must not have its condition made true again by the threads still in it. Lemma 4.4 gives
a syntactic sufficient condition: no shared variable read by the condition is assigned
in the body. Loops that fail it become

    z := e; while z do (P; z := e)

with z a fresh local, which satisfies Lemma 4.5 (z is local, so stable).
"""

from __future__ import annotations

from dataclasses import replace
from itertools import count

from . import core
from .terms import Term, Var, subterms


def shared_vars_read(kernel: core.Kernel, e: Term) -> set[str]:
    return {
        t.name
        for t in subterms(e)
        if isinstance(t, Var) and kernel.has_decl(t.name) and kernel.decl(t.name).kind is core.VarKind.SHARED
    }


def is_monotonic_by_lemma_4_4(kernel: core.Kernel, loop: core.While) -> bool:
    return not (shared_vars_read(kernel, loop.cond) & core.assigned_vars(loop.body))


def make_monotonic(kernel: core.Kernel) -> core.Kernel:
    """Apply the §4.1 transform to every loop that Lemma 4.4 does not show monotonic."""
    fresh = count(1)
    new_decls: list[core.VarDecl] = []

    def fresh_local(loop: core.While) -> str:
        while True:
            name = f"z.{next(fresh)}"
            if not kernel.has_decl(name):
                break
        new_decls.append(core.VarDecl(name, core.VarKind.LOCAL, 0, core.VarRole.SYNTHETIC, span=loop.span))
        return name

    def go(s: core.Stmt) -> core.Stmt:
        if isinstance(s, core.Seq):
            return core.Seq(tuple(go(x) for x in s.stmts), s.span)
        if isinstance(s, core.If):
            return core.If(s.cond, go(s.then), go(s.orelse), s.span)
        if isinstance(s, core.While):
            loop = core.While(s.cond, go(s.body), s.invariants, s.span)
            if is_monotonic_by_lemma_4_4(kernel, loop):
                return loop
            z = fresh_local(loop)
            evaluate = core.Assign(z, (), loop.cond, loop.span)
            body = core.Seq((*_flatten(loop.body), evaluate), loop.body.span)
            return core.Seq(
                (evaluate, core.While(Var(z, (), loop.cond.span), body, loop.invariants, loop.span))
            )
        return s

    body = go(kernel.body)
    if not new_decls:
        return kernel
    return replace(kernel, body=body, decls=(*kernel.decls, *new_decls))


def _flatten(s: core.Stmt) -> tuple[core.Stmt, ...]:
    return s.stmts if isinstance(s, core.Seq) else (s,)
