"""Unrolling loops that carry no invariant and run a constant, thread-independent number of times.

Without a `loop invariant`, H-WHILE can only use `true`, which forgets everything the loop
did. A loop such as `for (int k = 0; k < 4; k++)` or `for (s = 4; s > 0; s /= 2)` needs no
invariant: every thread runs the same known number of iterations, so the loop is the
sequence of its iterations. This pass (run on the core AST after lowering and
`hoaregpu.early_exit`, before the monotonic-loop transform) replaces such a loop by N copies
of its body, and lists every other loop without an invariant so that the report can say
that it was taken as `true` (`hoaregpu.report`).

When a loop is unrolled (`trip_count`):
- its condition, without the exit flags of `hoaregpu.early_exit` (`!brk && c`), reads one
  variable the body assigns, the counter: a per-thread scalar; everything else it reads is a
  literal, `blockDim.x` when the thread count is fixed, or a local that holds one known
  constant at the loop (set from constants before it and not assigned in the body);
- the body assigns the counter exactly once, on every path of an iteration (only exit-flag
  guards may stand above the assignment), from the counter and such constants;
- the counter's value before the loop is such a constant.
A scalar parameter that a top-level conjunct `p == K` of the kernel's `requires` fixes (K a
literal) counts as such a constant from the entry until the body assigns it: every execution
the precondition admits starts with `p == K` in every thread (`fixed_parameters`), so
`for (d = n >> 1; d > 0; d >>= 1)` under `requires n == 64` runs 6 iterations.
Then every thread that enters the loop holds the same counter value at every iteration, and
evaluating the condition on the sequence of counter values gives the trip count N (at most
`limit`). The copies keep the counter's assignments: the program computes exactly what the
loop did. With exit flags, each copy runs under `if (!brk && !ret)`: a thread that broke out
(or returned) is inactive for the rest of the loop, as in the loop, and a thread that did
not has executed the step in every iteration. In the lockstep semantics (Fig. 1) the loop
and its unrolling are then the same program.

In each copy, the counter and the other known constants are literals in the program's
expressions (`_fold`) and in its `assert`/`assume` clauses, barrier invariants among them
(`_fold_formula`: not below `@`, `\\old`, `\\all`), so that `(j + 1) % (2 * d)` is a
modulus by a constant for the solver.

Spans in a copy carry the iteration (`Span.context`), so a VC inside an unrolled loop is
reported at its source line with a note naming the iteration.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from . import core
from .consteval import evaluate
from .errors import Span
from .grid import literal_equalities
from .launch import Launch
from .limits import DEFAULT_UNROLL
from .term_walk import children, map_children, subterms, term_span
from .terms import (
    Aggregate,
    Binary,
    BinOp,
    BlockCount,
    BlockId,
    Conditional,
    IntLit,
    Quant,
    Term,
    ThreadCount,
    ThreadId,
    Unary,
    Var,
    builtin_name,
)
from .unroll_shape import is_exit_flag, none_set, split_flags, the_step, user_invariants

BUDGET_FACTOR = 16  # iterations unrolled in one kernel, nested copies included, at most limit * this


@dataclass(frozen=True)
class MissingInvariant:
    """A loop without a `loop invariant` that was not unrolled: H-WHILE uses `true` for it."""

    span: Span
    reason: str  # why it was not unrolled, e.g. "its condition reads threadIdx.x"


@dataclass(frozen=True)
class Unrolled:
    kernel: core.Kernel
    missing: tuple[MissingInvariant, ...] = ()
    unrolled: int = 0  # loops replaced by their iterations (each copy of a nested loop counts)


class _Refused(Exception):
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


Env = dict[str, int]  # per-thread scalars holding one known value at every active thread


@dataclass
class _Unroller:
    kernel: core.Kernel
    launch: Launch  # the sizes fixed by the contract and the command line
    limit: int
    budget: int
    missing: dict[tuple[str, int, int], MissingInvariant] = field(default_factory=dict)
    unrolled: int = 0
    inside: int = 0  # depth of unrolled copies being walked (their constants are propagated)

    # -- walking the program with the known constants -------------------------------

    def walk(self, s: core.Stmt, env: Env) -> tuple[core.Stmt, Env]:
        if isinstance(s, core.Assign):
            if self.inside:
                s = replace(
                    s, indices=tuple(self._fold(i, env) for i in s.indices), value=self._fold(s.value, env)
                )
            out = dict(env)
            out.pop(s.target, None)
            if self._scalar_local(s.target):
                value = self._constant(s.value, env)
                if value is not None:
                    out[s.target] = value
            return s, out
        if isinstance(s, core.Seq):
            stmts = []
            for x in s.stmts:
                new, env = self.walk(x, env)
                stmts.append(new)
            return core.Seq(tuple(stmts), s.span), env
        if isinstance(s, core.If):
            if self.inside:
                s = replace(s, cond=self._fold(s.cond, env))
            then, a = self.walk(s.then, env)
            orelse, b = self.walk(s.orelse, env)
            # a thread of the mask ran one branch or the other: keep what both agree on
            return core.If(s.cond, then, orelse, s.span), {x: v for x, v in a.items() if b.get(x) == v}
        if isinstance(s, core.While):
            return self.loop(s, env)
        if isinstance(s, core.Assert | core.Assume) and self.inside:
            return replace(s, formula=replace(s.formula, term=self._fold_formula(s.formula.term, env))), env
        # anything else (a device function called through its contract, `core.Opaque`, gets
        # arbitrary new values for what its body assigns) forgets what it may change; its
        # inside is verified on its own, so its loops are left alone
        changed = core.assigned_vars(s)
        return s, {x: v for x, v in env.items() if x not in changed}

    def loop(self, s: core.While, env: Env) -> tuple[core.Stmt, Env]:
        flags, cond = split_flags(self.kernel, s.cond)
        if not user_invariants(s, flags):
            try:
                copies = self.unroll(s, flags, cond, env)
            except _Refused as r:
                where = s.span or self.kernel.span or Span("<kernel>", 1, 1)
                self.missing.setdefault(
                    (where.path, where.line, where.col), MissingInvariant(where, r.reason)
                )
            else:
                self.unrolled += 1
                self.inside += 1
                try:
                    return self.walk(copies, env)
                finally:
                    self.inside -= 1
        # at the head of every iteration, what the body assigns is unknown
        head = {x: v for x, v in env.items() if x not in core.assigned_vars(s.body)}
        body, _ = self.walk(s.body, head)
        return core.While(s.cond, body, s.invariants, s.span), head

    # -- deciding the trip count -------------------------------------------------

    def trip_count(
        self, s: core.While, flags: tuple[str, ...], cond: Term, env: Env
    ) -> tuple[str, list[int]]:
        """The counter and its value at the start of each iteration (raises _Refused)."""
        assigned = core.assigned_vars(s.body)
        for t in subterms(cond):
            if isinstance(t, ThreadId | BlockId):
                raise _Refused(
                    f"its condition reads {builtin_name(t)} (the trip count depends on the thread)"
                )
        counters = sorted({t.name for t in subterms(cond) if isinstance(t, Var) and t.name in assigned})
        if not counters:
            raise _Refused("its condition reads no variable that the body changes (no loop counter)")
        if len(counters) > 1:
            raise _Refused(
                f"its condition reads several variables the body changes ({self._names(counters)})"
            )
        k = counters[0]
        name = self._name(k)
        if not self._scalar_local(k):
            raise _Refused(f"its counter '{name}' is not a per-thread scalar variable")
        self._check_constant_reads(cond, k, env, assigned, "its condition")
        step = the_step(s.body, k, flags)
        if step is None:
            raise _Refused(
                f"its counter '{name}' is not assigned exactly once on every path of an iteration "
                "(assigned inside a branch, an inner loop, or more than once)"
            )
        self._check_constant_reads(step.value, k, env, assigned, f"the step of '{name}'")
        if k not in env:
            raise _Refused(f"the value of its counter '{name}' on entry is not a known constant")
        values = [env[k]]
        at = dict(env)
        while True:
            at[k] = values[-1]
            go = self._constant(cond, at)
            if go is None:
                raise _Refused(f"its condition cannot be evaluated at {name} = {values[-1]}")
            if go == 0:
                return k, values[:-1]
            if len(values) > self.limit:
                raise _Refused(
                    f"it runs more than {self.limit} iterations "
                    "(the limit of unrolling; raise it with --unroll N)"
                )
            if len(values) > self.budget:
                raise _Refused(
                    f"unrolling it would pass the kernel's budget of {self.limit * BUDGET_FACTOR} unrolled "
                    "iterations (raise it with --unroll N)"
                )
            nxt = self._constant(step.value, at)
            if nxt is None:
                raise _Refused(f"the step of '{name}' cannot be evaluated at {name} = {values[-1]}")
            values.append(nxt)

    def unroll(self, s: core.While, flags: tuple[str, ...], cond: Term, env: Env) -> core.Stmt:
        if self.limit <= 0:
            raise _Refused("unrolling is turned off (--unroll 0)")
        k, values = self.trip_count(s, flags, cond, env)
        self.budget -= len(values)
        line = s.span.line if s.span is not None else 0
        copies: list[core.Stmt] = []
        for i, v in enumerate(values):
            note = (
                f"iteration {i + 1} of {len(values)} of the unrolled loop at line {line} "
                f"({self._name(k)} = {v})"
            )
            body = _respan(s.body, note)
            if flags:  # a thread that broke out or returned stays inactive (hoaregpu.early_exit)
                body = core.If(none_set(flags), body, core.Skip(), s.span)
            copies.append(body)
        return core.Seq(tuple(copies), s.span)

    # -- helpers -------------------------------------------------------------------

    def _check_constant_reads(self, t: Term, k: str, env: Env, assigned: set[str], what: str) -> None:
        for sub in subterms(t):
            if isinstance(sub, ThreadId | BlockId):
                raise _Refused(f"{what} reads {builtin_name(sub)} (the trip count depends on the thread)")
            if isinstance(sub, ThreadCount | BlockCount) and evaluate(sub, {}, self.launch) is None:
                raise _Refused(
                    f"{what} reads {builtin_name(sub)}, which is not fixed (fix it with "
                    "`requires blockDim.x == K;`, --threads, --blockDim or --gridDim)"
                )
            if isinstance(sub, Var) and sub.name != k:
                if sub.indices:
                    raise _Refused(f"{what} reads the array '{self._name(sub.name)}'")
                if sub.name in assigned or sub.name not in env:
                    raise _Refused(
                        f"{what} reads '{self._name(sub.name)}', "
                        "which is not a constant known before the loop"
                    )

    def _scalar_local(self, name: str) -> bool:
        if not self.kernel.has_decl(name):
            return False
        d = self.kernel.decl(name)
        return d.kind is core.VarKind.LOCAL and d.dim == 0

    def _name(self, name: str) -> str:
        return self.kernel.decl(name).display_name if self.kernel.has_decl(name) else name

    def _names(self, names: list[str]) -> str:
        return ", ".join(f"'{self._name(n)}'" for n in names)

    def _constant(self, t: Term, env: Env) -> int | None:
        return evaluate(t, env, self.launch)

    def _fold(self, t: Term, env: Env) -> Term:
        """A program expression of an unrolled copy with the scalars of `env` replaced by their
        values and the operators over literals computed (as C does, `consteval`): `a[t + s]`
        becomes `a[t + 512]`, `(i + 1) % (2 * d)` becomes `(i + 1) % 8`. Exact: the expression is
        evaluated only by the active threads, and each of them holds that value (`Env`); the
        counter's own assignment stays, so the program computes what it did."""
        if isinstance(t, Var) and not t.indices and t.name in env and self._scalar_local(t.name):
            if is_exit_flag(self.kernel, t.name):  # the copies' guards keep their shape
                return t
            return IntLit(env[t.name], t.span)
        if not isinstance(t, Var | Binary | Unary | Conditional):
            return t  # literals, builtins, and no formula-only nodes in program expressions
        out = map_children(t, lambda c: self._fold(c, env))
        if isinstance(out, Binary | Unary | Conditional) and all(
            isinstance(c, IntLit) for c in children(out)
        ):
            value = evaluate(out, {}, self.launch)
            if value is not None:
                return IntLit(value, term_span(out))
        return out

    def _fold_formula(self, t: Term, env: Env, bound: frozenset[str] = frozenset()) -> Term:
        """`_fold` in an `assert`/`assume` of a copy: its plain reads of a counter are at the
        active threads, each holding the value (`u + d` of a barrier invariant becomes `u + 4`,
        a linear term for the solver). Not below `@`, `\\old`, `\\all`, ... (another thread's
        or state's value), nor of a bound variable."""
        if isinstance(t, Quant):
            return replace(t, body=self._fold_formula(t.body, env, bound | frozenset(t.names)))
        if isinstance(t, Aggregate):
            return replace(
                t,
                low=self._fold_formula(t.low, env, bound),
                high=self._fold_formula(t.high, env, bound),
                body=self._fold_formula(t.body, env, bound | {t.name}),
            )
        if isinstance(t, Var) and not t.indices and t.name not in bound:
            return self._fold(t, env)
        if not isinstance(t, Var | Binary | Unary | Conditional):
            return t
        folded = map_children(t, lambda c: self._fold_formula(c, env, bound))
        if (
            isinstance(folded, Binary)
            and folded.op in _ARITHMETIC
            and all(isinstance(c, IntLit) for c in children(folded))
        ):
            value = evaluate(folded, {}, self.launch)
            if value is not None:
                return IntLit(value, term_span(folded))
        return folded


_ARITHMETIC = frozenset({BinOp.ADD, BinOp.SUB, BinOp.MUL, BinOp.DIV, BinOp.MOD, BinOp.SHL, BinOp.SHR})


def _span(span: Span | None, note: str) -> Span | None:
    return None if span is None else replace(span, context=(*span.context, note))


def _formula(f: core.Formula, note: str) -> core.Formula:
    return core.Formula(f.term, replace(f.span, context=(*f.span.context, note)))


def _respan(s: core.Stmt, note: str) -> core.Stmt:
    """`s` with every statement's and clause's span marked as being in one unrolled iteration
    (`replace` keeps the other fields, e.g. an `assume`'s contract)."""
    span = _span(s.span, note)
    if isinstance(s, core.Seq):
        return replace(s, stmts=tuple(_respan(x, note) for x in s.stmts), span=span)
    if isinstance(s, core.If):
        return replace(s, then=_respan(s.then, note), orelse=_respan(s.orelse, note), span=span)
    if isinstance(s, core.While):
        invs = tuple(_formula(f, note) for f in s.invariants)
        return replace(s, body=_respan(s.body, note), invariants=invs, span=span)
    if isinstance(s, core.Opaque):
        return replace(s, body=_respan(s.body, note), span=span)
    if isinstance(s, core.Assert | core.Assume):
        return replace(s, formula=_formula(s.formula, note), span=span)
    if isinstance(s, core.Assign | core.Skip | core.Sync | core.Exit):
        return replace(s, span=span)
    raise AssertionError(f"unexpected statement {s!r}")


def fixed_parameters(kernel: core.Kernel) -> Env:
    """The scalar parameters that a top-level conjunct `p == K` (or `K == p`, K a literal) of
    the kernel's `requires` fixes, with their values: what they hold at the entry of every
    execution the precondition admits. (A parameter fixed twice to different values makes the
    precondition false; it is left out, so nothing is derived from it.)"""
    found: dict[str, set[int]] = {}
    for a, value in literal_equalities(kernel.requires):
        if (
            isinstance(a, Var)
            and not a.indices
            and kernel.has_decl(a.name)
            and kernel.decl(a.name).role is core.VarRole.SCALAR_PARAM
            and kernel.decl(a.name).dim == 0
            and not kernel.decl(a.name).floating
        ):
            found.setdefault(a.name, set()).add(value)
    return {name: next(iter(vs)) for name, vs in found.items() if len(vs) == 1}


def unroll(kernel: core.Kernel, launch: Launch | int | None, limit: int = DEFAULT_UNROLL) -> Unrolled:
    """Unroll the kernel's loops without invariants that have a constant trip count of at most
    `limit` (0: none); list the other loops without invariants. `launch`: the sizes fixed by the
    contract and the command line (an int or None: the thread count of one block)."""
    sizes = launch if isinstance(launch, Launch) else Launch.of_threads(launch)
    u = _Unroller(kernel, sizes, limit, max(limit, 0) * BUDGET_FACTOR)
    body, _ = u.walk(kernel.body, fixed_parameters(kernel))
    new = replace(kernel, body=body) if u.unrolled else kernel
    return Unrolled(new, tuple(u.missing.values()), u.unrolled)
