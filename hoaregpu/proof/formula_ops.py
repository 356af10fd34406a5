"""Operations on proof formulas: variables, fresh names, renaming, substitution, α-equivalence."""

from __future__ import annotations

from collections.abc import Callable

from ..terms import BinOp, UnOp
from .formula import (
    Agg,
    AllNone,
    AssignP,
    At,
    Bin,
    Cond,
    F,
    FnForall,
    Mask,
    Name,
    Ntid,
    Num,
    Old,
    Quant,
    Tid,
    Un,
    mask_expr,
)

# ---------------------------------------------------------------- variables and names


def children(f: F) -> tuple[F, ...]:
    if isinstance(f, Name):
        return f.indices
    if isinstance(f, Bin):
        return (f.left, f.right)
    if isinstance(f, Un):
        return (f.operand,)
    if isinstance(f, Cond):
        return (f.cond, f.then, f.orelse)
    if isinstance(f, Quant | FnForall):
        return (f.body,)
    if isinstance(f, At):
        return (f.term, f.thread)
    if isinstance(f, Old | AllNone):
        return (f.term,)
    if isinstance(f, AssignP):
        return (f.mask, *f.indices, f.value)
    if isinstance(f, Agg):
        return (f.low, f.high, f.body)
    return ()


def all_names(f: F) -> set[str]:
    """Every identifier in `f`, bound or free (for choosing fresh names)."""
    out: set[str] = set()
    stack = [f]
    while stack:
        g = stack.pop()
        if isinstance(g, Name):
            out.add(g.name)
        elif isinstance(g, Quant):
            out.update(g.names)
        elif isinstance(g, AssignP):
            out.update((g.new, g.target))
        elif isinstance(g, FnForall | Agg):
            out.add(g.name)
        stack.extend(children(g))
    return out


def free_names(f: F, bound: frozenset[str] = frozenset()) -> set[str]:
    """Free variables: names read (an indexed read is never a bound integer), assign's
    variables; `\\old(x)` counts as x (it is the variable's initial value)."""
    if isinstance(f, Name):
        out = {f.name} if (f.indices or f.name not in bound) else set()
        for i in f.indices:
            out |= free_names(i, bound)
        return out
    if isinstance(f, Quant):
        return free_names(f.body, bound | frozenset(f.names))
    if isinstance(f, FnForall):
        return free_names(f.body, bound | {f.name})
    if isinstance(f, Agg):  # the binder is bound in the body only
        return free_names(f.low, bound) | free_names(f.high, bound) | free_names(f.body, bound | {f.name})
    out = set()
    if isinstance(f, AssignP):
        out = {n for n in (f.new, f.target) if n not in bound}
    for c in children(f):
        out |= free_names(c, bound)
    return out


def current_vars(f: F, bound: frozenset[str] = frozenset()) -> set[str]:
    """Free variables read in the current state (outside `\\old`)."""
    if isinstance(f, Old):
        return set()
    if isinstance(f, Name):
        out = {f.name} if (f.indices or f.name not in bound) else set()
        for i in f.indices:
            out |= current_vars(i, bound)
        return out
    if isinstance(f, Quant):
        return current_vars(f.body, bound | frozenset(f.names))
    if isinstance(f, FnForall):
        return current_vars(f.body, bound | {f.name})
    if isinstance(f, Agg):
        inner = current_vars(f.body, bound | {f.name})
        return current_vars(f.low, bound) | current_vars(f.high, bound) | inner
    out = set()
    if isinstance(f, AssignP):
        out = {n for n in (f.new, f.target) if n not in bound}
    for c in children(f):
        out |= current_vars(c, bound)
    return out


def old_vars(f: F) -> set[str]:
    """Variables read under `\\old` (free there: not an enclosing quantifier's or
    aggregate's bound integer, as `k` in `\\sum(0, n, \\lambda int k; \\old(a[k]))`)."""
    out: set[str] = set()
    stack: list[tuple[F, frozenset[str]]] = [(f, frozenset())]
    while stack:
        g, bound = stack.pop()
        if isinstance(g, Old):
            out |= free_names(g.term, bound)
        elif isinstance(g, Quant):
            stack.append((g.body, bound | frozenset(g.names)))
        elif isinstance(g, Agg):
            stack += [(g.low, bound), (g.high, bound), (g.body, bound | {g.name})]
        else:
            stack.extend((c, bound) for c in children(g))
    return out


def fresh_name(base: str, avoid: set[str]) -> str:
    if base not in avoid:
        return base
    k = 1
    while f"{base}{k}" in avoid:
        k += 1
    return f"{base}{k}"


# ---------------------------------------------------------------- substitution


def rebuild(f: F, go: Callable[[F], F]) -> F:
    """`f` with `go` applied to its direct subformulas."""
    if isinstance(f, Name):
        return Name(f.name, tuple(go(i) for i in f.indices))
    if isinstance(f, Bin):
        return Bin(f.op, go(f.left), go(f.right))
    if isinstance(f, Un):
        return Un(f.op, go(f.operand))
    if isinstance(f, Cond):
        return Cond(go(f.cond), go(f.then), go(f.orelse))
    if isinstance(f, Quant):
        return Quant(f.forall, f.names, go(f.body))
    if isinstance(f, FnForall):
        return FnForall(f.name, go(f.body))
    if isinstance(f, At):
        return At(go(f.term), go(f.thread))
    if isinstance(f, Old):
        return Old(go(f.term))
    if isinstance(f, AllNone):
        return AllNone(f.all, go(f.term))
    if isinstance(f, AssignP):
        return AssignP(f.new, go(f.mask), f.target, tuple(go(i) for i in f.indices), go(f.value))
    if isinstance(f, Agg):
        return Agg(f.kind, go(f.low), go(f.high), f.name, go(f.body))
    return f


def rename_var(f: F, old: str, new: str, bound: frozenset[str] = frozenset()) -> F:
    """φ[x'/x]: the program variable `old` becomes `new` where it is read in the current
    state (not under `\\old`, not where a bound integer of that name shadows it)."""
    if isinstance(f, Old):
        return f
    if isinstance(f, Name):
        idx = tuple(rename_var(i, old, new, bound) for i in f.indices)
        hit = f.name == old and (bool(f.indices) or old not in bound)
        return Name(new if hit else f.name, idx)
    if isinstance(f, Quant):
        return Quant(f.forall, f.names, rename_var(f.body, old, new, bound | frozenset(f.names)))
    if isinstance(f, FnForall):
        if f.name == old:
            return f
        return FnForall(f.name, rename_var(f.body, old, new, bound))
    if isinstance(f, Agg):  # k is bound in the body: a scalar `old` named k is not read there
        body = rename_var(f.body, old, new, bound | {f.name})
        return Agg(
            f.kind, rename_var(f.low, old, new, bound), rename_var(f.high, old, new, bound), f.name, body
        )
    if isinstance(f, AssignP):
        g = rebuild(f, lambda c: rename_var(c, old, new, bound))
        assert isinstance(g, AssignP)
        return AssignP(
            new if g.new == old else g.new, g.mask, new if g.target == old else g.target, g.indices, g.value
        )
    return rebuild(f, lambda c: rename_var(c, old, new, bound))


def subst_name(f: F, name: str, by: F) -> F:
    """Replace the free scalar variable `name` by `by`, capture-avoiding (bound integers
    that `by` mentions are renamed). Used for z := e in H-IF's precondition."""
    by_free = free_names(by)

    def go(g: F, bound: frozenset[str]) -> F:
        if isinstance(g, Name):
            if g.name == name and not g.indices and name not in bound:
                return by
            return Name(g.name, tuple(go(i, bound) for i in g.indices))
        if isinstance(g, Quant):
            if name in g.names:
                return g
            names = list(g.names)
            body = g.body
            for k, n in enumerate(names):
                if n in by_free:
                    m = fresh_name(n, all_names(body) | by_free | {name})
                    body = subst_name(body, n, Name(m))
                    names[k] = m
            return Quant(g.forall, tuple(names), go(body, bound | frozenset(names)))
        if isinstance(g, Agg):
            low, high = go(g.low, bound), go(g.high, bound)
            if name == g.name:  # shadowed in the body
                return Agg(g.kind, low, high, g.name, g.body)
            binder, body = g.name, g.body
            if binder in by_free:  # `by` would be captured by the binder: rename it first
                binder = fresh_name(binder, all_names(body) | by_free | {name})
                body = subst_name(body, g.name, Name(binder))
            return Agg(g.kind, low, high, binder, go(body, bound | {binder}))
        return rebuild(g, lambda c: go(c, bound))

    return go(f, frozenset())


def canon(f: F) -> F:
    """Bound integer variables renamed by position, for comparison up to α-equivalence."""
    counter = [0]

    def go(g: F, env: dict[str, str]) -> F:
        if isinstance(g, Name):
            n = env.get(g.name, g.name) if not g.indices else g.name
            return Name(n, tuple(go(i, env) for i in g.indices))
        if isinstance(g, Quant):
            inner = dict(env)
            names = []
            for n in g.names:
                counter[0] += 1
                inner[n] = f"#{counter[0]}"
                names.append(inner[n])
            return Quant(g.forall, tuple(names), go(g.body, inner))
        if isinstance(g, Agg):
            counter[0] += 1
            k = f"#{counter[0]}"
            return Agg(g.kind, go(g.low, env), go(g.high, env), k, go(g.body, {**env, g.name: k}))
        return rebuild(g, lambda c: go(c, env))

    return go(f, {})


def alpha_eq(a: F, b: F) -> bool:
    return a == b or canon(a) == canon(b)


def base_var(name: str) -> str:
    """`c'3` → `c`; other names unchanged."""
    return name.split("'", 1)[0]


def is_primed(name: str) -> bool:
    head, sep, tail = name.partition("'")
    return bool(sep) and bool(head) and tail.isdigit()


# ---------------------------------------------------------------- the thread reading


def is_per_thread(f: F, local: Callable[[str], bool], bound: frozenset[str] = frozenset()) -> bool:
    """Reads a local variable or tid outside `@` (spec language §3, thread reading)."""
    if isinstance(f, Tid):
        return True
    if isinstance(f, Name):
        if (f.indices or f.name not in bound) and local(f.name):
            return True
        return any(is_per_thread(i, local, bound) for i in f.indices)
    if isinstance(f, At):
        return is_per_thread(f.thread, local, bound)
    if isinstance(f, Quant):
        return is_per_thread(f.body, local, bound | frozenset(f.names))
    if isinstance(f, Agg):
        parts = ((f.low, bound), (f.high, bound), (f.body, bound | {f.name}))
        return any(is_per_thread(c, local, b) for c, b in parts)
    if isinstance(f, AllNone):
        return False
    if isinstance(f, Old):
        return is_per_thread(f.term, local, bound)
    return any(is_per_thread(c, local, bound) for c in children(f))


def read_at(phi: F, m: Mask, local: Callable[[str], bool], avoid: set[str]) -> F:
    """A per-thread clause read at the threads of m:
    `\\forall int t; 0 <= t && t < ntid && m @ t ==> φ @ t` (no mask conjunct when m is T);
    a global clause is itself."""
    if not is_per_thread(phi, local):
        return phi
    t = fresh_name("t", avoid | all_names(phi) | {z for z, _ in m})
    guard: F = Bin(BinOp.AND, Bin(BinOp.LE, Num(0), Name(t)), Bin(BinOp.LT, Name(t), Ntid()))
    if m:
        guard = Bin(BinOp.AND, guard, At(mask_expr(m), Name(t)))
    return Quant(True, (t,), Bin(BinOp.IMPLIES, guard, At(phi, Name(t))))


def read_active(phi: F, m: Mask, local: Callable[[str], bool], avoid: set[str]) -> F:
    """A clause of a statement (`assert`, `assume`, loop invariant) read at the threads of m.

    A per-thread clause is `read_at`. A global clause under m ≠ T is `!\\none(m) ==> φ`: it
    speaks only when some thread is active (a statement no thread executes says nothing),
    the reading of the VC generator and of the interpreters. Under T it is φ (N >= 1)."""
    if not m or is_per_thread(phi, local):
        return read_at(phi, m, local, avoid)
    return Bin(BinOp.IMPLIES, Un(UnOp.NOT, AllNone(False, mask_expr(m))), phi)


def int_literal(f: F) -> int | None:
    """The value of a literal `7` or `-7` (None for anything else)."""
    if isinstance(f, Num):
        return f.value
    if isinstance(f, Un) and f.op is UnOp.NEG and isinstance(f.operand, Num):
        return -f.operand.value
    return None
