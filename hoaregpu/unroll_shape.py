"""The shape of a loop that `hoaregpu.unroll` may unroll: the exit flags in its condition
(`hoaregpu.early_exit`), whether it carries the user's invariants, and its one step."""

from __future__ import annotations

from . import core
from .terms import Binary, BinOp, Term, Unary, UnOp, Var

_EXIT_FLAG_PREFIXES = (core.ExitKind.BREAK.value + ".", core.ExitKind.RETURN.value + ".")


def split_flags(kernel: core.Kernel, cond: Term) -> tuple[tuple[str, ...], Term]:
    """`!ret && (!brk && c)` (as `hoaregpu.early_exit` builds it) → ((ret, brk), c)."""
    flags: list[str] = []
    while (
        isinstance(cond, Binary)
        and cond.op is BinOp.AND
        and isinstance(cond.left, Unary)
        and cond.left.op is UnOp.NOT
        and isinstance(cond.left.operand, Var)
        and is_exit_flag(kernel, cond.left.operand.name)
    ):
        flags.append(cond.left.operand.name)
        cond = cond.right
    return tuple(flags), cond


def is_exit_flag(kernel: core.Kernel, name: str) -> bool:
    return (
        name.startswith(_EXIT_FLAG_PREFIXES)
        and kernel.has_decl(name)
        and kernel.decl(name).role is core.VarRole.SYNTHETIC
    )


def user_invariants(s: core.While, flags: tuple[str, ...]) -> bool:
    """Whether the loop has invariants other than the `brk ==> B` that early_exit adds."""
    for inv in s.invariants:
        t = inv.term
        synthetic = (
            isinstance(t, Binary)
            and t.op is BinOp.IMPLIES
            and isinstance(t.left, Var)
            and t.left.name in flags
        )
        if not synthetic:
            return True
    return False


def the_step(body: core.Stmt, k: str, flags: tuple[str, ...]) -> core.Assign | None:
    """The one assignment to `k` in the body, when it is reached on every path of an iteration
    except through guards on the loop's own exit flags (`if (!brk) ...`: a thread that fails
    one is inactive for the rest of the loop), and no other statement assigns `k`. A guard on
    a `continue` flag does not count: a thread that continued stays in the loop without
    stepping its counter."""
    found: list[core.Assign] = []

    def top(s: core.Stmt) -> None:
        if isinstance(s, core.Assign) and s.target == k:
            found.append(s)
        elif isinstance(s, core.Seq):
            for x in s.stmts:
                top(x)
        elif isinstance(s, core.If) and _is_flag_guard(s.cond, flags) and isinstance(s.orelse, core.Skip):
            top(s.then)

    top(body)
    if len(found) != 1 or count_assignments(body, k) != 1:
        return None
    return found[0]


def _is_flag_guard(t: Term, flags: tuple[str, ...]) -> bool:
    """`!f` or `!f && !g` with f, g among `flags`: the guards `hoaregpu.early_exit` puts after a
    possible exit."""
    if isinstance(t, Unary) and t.op is UnOp.NOT and isinstance(t.operand, Var):
        return t.operand.name in flags and not t.operand.indices
    if isinstance(t, Binary) and t.op is BinOp.AND:
        return _is_flag_guard(t.left, flags) and _is_flag_guard(t.right, flags)
    return False


def count_assignments(s: core.Stmt, k: str) -> int:
    if isinstance(s, core.Assign):
        return int(s.target == k)
    if isinstance(s, core.Seq):
        return sum(count_assignments(x, k) for x in s.stmts)
    if isinstance(s, core.If):
        return count_assignments(s.then, k) + count_assignments(s.orelse, k)
    if isinstance(s, core.While | core.Opaque):  # runs any number of times / havocs
        return 2 if k in core.assigned_vars(s) else 0
    return 0


def none_set(flags: tuple[str, ...]) -> Term:
    term: Term = Unary(UnOp.NOT, Var(flags[0], (), None), None)
    for f in flags[1:]:
        term = Binary(BinOp.AND, term, Unary(UnOp.NOT, Var(f, (), None), None), None)
    return term
