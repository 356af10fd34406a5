"""Early exit by masks: `return;`, `break;` and `continue;` become per-thread flags.

The core language of the paper has no jumps, but its masks express them exactly: a thread
that has returned (broken out, continued) is simply not active for the rest of the kernel
(loop, iteration). So each exit sets a fresh local flag, and everything after a statement
that may have set one runs under `if (!flag)`:

    return;    ⇒ ret := 1     and the rest of the kernel, and every loop condition, tests !ret
    break;     ⇒ brk := 1     and the rest of the loop body tests !brk, the loop condition too
    continue;  ⇒ cnt := 1     and the rest of the iteration tests !cnt (a `for` step still runs)

This is the lockstep semantics of Fig. 1 unchanged: a barrier after a `return` taken by
some threads of a block stands under `if (!ret)`, so the strict H-SYNC rule reports the
barrier divergence. Loop invariants describe the loop head for every thread that reached
the loop, including threads that broke out (their locals no longer change).
"""

from __future__ import annotations

from collections.abc import Callable

from . import core
from .core import Exit, ExitKind
from .errors import Span
from .term_walk import conjoin
from .terms import Binary, BinOp, IntLit, Term, Unary, UnOp, Var

Fresh = Callable[[ExitKind], str]


def contains(stmt: core.Stmt, kind: ExitKind, nested_loops: bool) -> bool:
    """Whether `stmt` may exit by `kind` (looking into nested loops only if asked)."""
    if isinstance(stmt, Exit):
        return stmt.kind is kind
    if isinstance(stmt, core.Seq):
        return any(contains(s, kind, nested_loops) for s in stmt.stmts)
    if isinstance(stmt, core.If):
        return contains(stmt.then, kind, nested_loops) or contains(stmt.orelse, kind, nested_loops)
    if isinstance(stmt, core.While):
        return nested_loops and contains(stmt.body, kind, nested_loops)
    if isinstance(stmt, core.Opaque):
        return contains(stmt.body, kind, nested_loops)
    return False


def eliminate(stmt: core.Stmt, flags: dict[ExitKind, str]) -> tuple[core.Stmt, set[ExitKind]]:
    """Replace the exits of the kinds in `flags` by setting their flag; guard what follows.
    Returns the new statement and the kinds it may have set."""
    if isinstance(stmt, Exit):
        if stmt.kind in flags:
            return core.Assign(flags[stmt.kind], (), IntLit(1, None), stmt.span), {stmt.kind}
        return stmt, set()
    if isinstance(stmt, core.Seq):
        return _sequence(list(stmt.stmts), flags, stmt)
    if isinstance(stmt, core.If):
        then, a = eliminate(stmt.then, flags)
        orelse, b = eliminate(stmt.orelse, flags)
        return core.If(stmt.cond, then, orelse, stmt.span), a | b
    if isinstance(stmt, core.While) and ExitKind.RETURN in flags:
        # only a `return` reaches through a nested loop (break/continue bind to the innermost)
        body, kinds = eliminate(stmt.body, {ExitKind.RETURN: flags[ExitKind.RETURN]})
        if not kinds:
            return stmt, set()
        cond = _and_not(flags[ExitKind.RETURN], stmt.cond)
        return core.While(cond, body, stmt.invariants, stmt.span), kinds
    return stmt, set()


def _sequence(
    stmts: list[core.Stmt], flags: dict[ExitKind, str], original: core.Seq
) -> tuple[core.Stmt, set[ExitKind]]:
    out: list[core.Stmt] = []
    found: set[ExitKind] = set()
    for i, s in enumerate(stmts):
        new, kinds = eliminate(s, flags)
        out.append(new)
        found |= kinds
        rest: list[core.Stmt] = [r for r in stmts[i + 1 :] if not isinstance(r, core.Skip)]
        if kinds and rest:
            rest_stmt, more = _sequence(rest, flags, original)
            guard = _none_set([flags[k] for k in sorted(kinds, key=lambda k: k.value)])
            out.append(core.If(guard, rest_stmt, core.Skip(), None))
            return core.Seq(tuple(out), original.span), found | more
    # an exit in the last statement counts too (a loop whose body ends in `if (c) return;`
    # must still test the flag in its condition)
    return core.Seq(tuple(out), original.span), found


def break_conditions(stmt: core.Stmt, path: tuple[Term, ...] = ()) -> list[Term] | None:
    """The condition under which each `break` of this loop is taken, when every break stands
    as `if (B) break;` (possibly nested: `if (a) { if (b) break; }`); None otherwise."""
    if isinstance(stmt, Exit):
        if stmt.kind is not ExitKind.BREAK:
            return []
        return [conjoin(path)] if path else None
    if isinstance(stmt, core.Seq):
        if len(stmt.stmts) == 1:
            return break_conditions(stmt.stmts[0], path)
        if path and contains(stmt, ExitKind.BREAK, nested_loops=False):
            return None  # `if (B) { x = ...; break; }`: B may no longer hold at the break
        out: list[Term] = []
        for s in stmt.stmts:
            found = break_conditions(s, path)
            if found is None:
                return None
            out.extend(found)
        return out
    if isinstance(stmt, core.If):
        a = break_conditions(stmt.then, (*path, stmt.cond))
        b = break_conditions(stmt.orelse, (*path, Unary(UnOp.NOT, stmt.cond, None)))
        return None if a is None or b is None else a + b
    return []


def loop(
    cond: Term,
    body: core.Stmt,
    step: core.Stmt,
    invariants: tuple[core.Formula, ...],
    span: Span | None,
    fresh: Fresh,
    is_local: Callable[[Term], bool],
) -> core.Stmt:
    """`while (cond) { body; step }` with the `break`/`continue` of this loop eliminated
    (a `return` inside stays an Exit for the kernel-level pass)."""
    pre: list[core.Stmt] = []
    if contains(body, ExitKind.CONTINUE, nested_loops=False):
        cnt = fresh(ExitKind.CONTINUE)
        body, _ = eliminate(body, {ExitKind.CONTINUE: cnt})
        body = core.Seq((core.Assign(cnt, (), IntLit(0, None), None), body), None)
    if not isinstance(step, core.Skip):
        body = core.Seq((body, step), None)
    if contains(body, ExitKind.BREAK, nested_loops=False):
        brk = fresh(ExitKind.BREAK)
        conditions = break_conditions(body)
        if conditions and span is not None and all(is_local(c) for c in conditions):
            # What a thread knew when it broke out stays true: its locals no longer change
            # (it is inactive for the rest of the loop), so `brk ==> B` is invariant.
            known = Binary(BinOp.IMPLIES, Var(brk, (), None), _disj(conditions), None)
            invariants = (*invariants, core.Formula(known, span))
        body, _ = eliminate(body, {ExitKind.BREAK: brk})
        cond = _and_not(brk, cond)
        pre.append(core.Assign(brk, (), IntLit(0, None), None))
    return core.Seq((*pre, core.While(cond, body, invariants, span)), None)


def kernel_body(body: core.Stmt, fresh: Fresh) -> core.Stmt:
    """The kernel's body with `return` eliminated (a flag is made only when one occurs)."""
    if not contains(body, ExitKind.RETURN, nested_loops=True):
        return body
    ret = fresh(ExitKind.RETURN)
    new, _ = eliminate(body, {ExitKind.RETURN: ret})
    return core.Seq((core.Assign(ret, (), IntLit(0, None), None), new), None)


def _not(flag: str) -> Term:
    return Unary(UnOp.NOT, Var(flag, (), None), None)


def _none_set(flags: list[str]) -> Term:
    term = _not(flags[0])
    for f in flags[1:]:
        term = Binary(BinOp.AND, term, _not(f), None)
    return term


def _disj(terms: list[Term]) -> Term:
    out = terms[0]
    for t in terms[1:]:
        out = Binary(BinOp.OR, out, t, None)
    return out


def _and_not(flag: str, cond: Term) -> Term:
    return Binary(BinOp.AND, _not(flag), cond, cond.span)
