"""The monotonic-loop transform of §4.1.

Soundness of H-WHILE (Theorem 4.6) needs monotonic loops: a thread that has left a loop
must not have its condition made true again by the threads still in it. Lemma 4.4 gives
a syntactic sufficient condition: no shared variable read by the condition is assigned
in the body. Loops that fail it become

    z := e; while z do (P; z := e)

with z a fresh local, which satisfies Lemma 4.5 (z is local, so stable). Loops whose
condition reads a shared cell only at `x[tid]`, written by the body only at `x[tid]`,
are stable as well (see `is_monotonic_by_lemma_4_4`) and are left alone.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import count

from . import core
from .grid import live_coords, own_cell
from .term_walk import subterms
from .terms import Term, Var


def shared_vars_read(kernel: core.Kernel, e: Term) -> set[str]:
    return {
        t.name
        for t in subterms(e)
        if isinstance(t, Var) and kernel.has_decl(t.name) and kernel.decl(t.name).kind is core.VarKind.SHARED
    }


def _assignments(stmt: core.Stmt, target: str) -> list[core.Assign]:
    return [s for s in core.statements(stmt) if isinstance(s, core.Assign) and s.target == target]


def _thread_private(x: str, loop: core.While, own: tuple[Term, ...] | None) -> bool:
    """x is read by the condition only as x[tid], and written by the body only as x[tid]
    (`x[blockIdx.x][tid]` for per-block shared memory: `grid.own_cell`)."""
    if own is None:
        return False
    reads = [t for t in subterms(loop.cond) if isinstance(t, Var) and t.name == x]
    return all(t.indices == own for t in reads) and all(a.indices == own for a in _assignments(loop.body, x))


def is_monotonic_by_lemma_4_4(kernel: core.Kernel, loop: core.While) -> bool:
    """Lemma 4.4, extended to thread-private cells.

    The lemma: no shared variable read by the condition is assigned in the body. The
    extension: such a variable is fine when the condition reads it only as x[tid] and the
    body writes it only as x[tid]. Then an inactive thread i's condition reads x[i] alone,
    and the active threads j ≠ i write only x[j], so the condition at i cannot change: it
    is stable (Definition 4.1), which is all Lemma 4.2 needs."""
    return _monotonic(kernel, loop, own_cell(live_coords(kernel)))


def _monotonic(kernel: core.Kernel, loop: core.While, own: tuple[Term, ...] | None) -> bool:
    shared_written = shared_vars_read(kernel, loop.cond) & core.assigned_vars(loop.body)
    return all(_thread_private(x, loop, own) for x in shared_written)


def make_monotonic(kernel: core.Kernel) -> core.Kernel:
    """Apply the §4.1 transform to every loop that Lemma 4.4 does not show monotonic."""
    own = own_cell(live_coords(kernel))  # one scan of the kernel, not one per loop
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
        if isinstance(s, core.Opaque):
            return replace(s, body=go(s.body))
        if isinstance(s, core.While):
            loop = core.While(s.cond, go(s.body), s.invariants, s.span)
            if _monotonic(kernel, loop, own):
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
