"""Checking spec formulas against a concrete state (spec-language §3).

A formula that mentions `tid` or a local variable outside `e @ t` / `\\all` / `\\none` is
per-thread: it is checked at every thread of the mask where the clause stands. Any
other formula is global and checked once. `\\old(e)` reads the kernel's initial state;
`e @ t` evaluates `e` at thread `t` (Definition 3.3); `\\all(e)` / `\\none(e)` range over
the threads 0..N-1 (Definition 3.5). Names that the kernel does not declare are bound
variables of an enclosing quantifier.

Quantifier domains. A quantifier over the integers is checked on a finite domain:

1. Bounds are read off the guard — the antecedents of `\\forall v; g1 ==> g2 ==> body`
   and the conjuncts of `\\exists v; c1 && c2 && ...` — from comparisons `v < e`,
   `v <= e`, `e < v`, `v == e`, ... (and `>`, `>=`), where `e` is either free of the
   quantifier's variables (evaluated in the current state) or another of its variables
   (bounds propagate: `0 <= i < j < n` bounds both i and j).
2. A side with no such bound uses a window: from `min(0, every index the state
   mentions) - MARGIN` to `max(N - 1, every index the state mentions) + MARGIN`. Unset
   cells of an array all hold its default, so the window holds a representative of them,
   but the check is then bounded, and a note saying so goes into the run's report.
3. At most DOMAIN_LIMIT combinations are checked; beyond that the check is bounded too.

Cost. Every quantifier instance (and every thread of `\\all`/`\\none`) evaluated is
charged to the checker's budget (the run's step budget): a loop invariant quantified up
to a huge `n`, checked at every iteration, would otherwise run for minutes. When it is
used up, `EvaluationBudgetExhausted` stops the run (reported as `step-budget`).
"""

from __future__ import annotations

import contextlib
import itertools
from dataclasses import dataclass

from ..core import Formula, Kernel, VarKind
from ..errors import HoareGpuError, Span
from ..floats import FLOAT_UNOPS
from ..launch import Coord
from ..term_walk import children
from ..terms import (
    Aggregate,
    At,
    Binary,
    BinOp,
    BlockCount,
    BlockId,
    Conditional,
    IntLit,
    Old,
    Quant,
    QuantKind,
    Term,
    ThreadCount,
    ThreadId,
    ThreadPred,
    ThreadPredKind,
    Unary,
    UnOp,
    Var,
    builtin_name,
)
from . import bigops, floats
from .evaluate import EvalError, binop_scalar
from .values import State

MARGIN = 2
DOMAIN_LIMIT = 1_000_000


def mentions_thread(term: Term, kernel: Kernel) -> bool:
    """Whether `term` is per-thread: `tid` or a local variable outside `@`/`\\all`/`\\none`."""
    if isinstance(term, ThreadId | BlockId):
        return True
    if isinstance(term, Var) and kernel.has_decl(term.name) and kernel.decl(term.name).kind is VarKind.LOCAL:
        return True
    if isinstance(term, At):
        return mentions_thread(term.thread, kernel)
    if isinstance(term, ThreadPred):
        return False
    return any(mentions_thread(c, kernel) for c in children(term))


def _scalar_locals(term: Term, kernel: Kernel) -> list[str] | None:
    """The local scalars `term` reads (sorted), or None when it reads a thread coordinate,
    `@` or a local array: what a per-thread formula's value depends on besides memory."""
    names: set[str] = set()

    def walk(t: Term) -> bool:
        if isinstance(t, ThreadId | BlockId | At):
            return False
        if isinstance(t, Var) and kernel.has_decl(t.name) and kernel.decl(t.name).kind is VarKind.LOCAL:
            if t.indices or kernel.decl(t.name).dim:
                return False
            names.add(t.name)
        return all(walk(c) for c in children(t))

    return sorted(names) if walk(term) else None


def _conjuncts(t: Term) -> list[Term]:
    if isinstance(t, Binary) and t.op is BinOp.AND:
        return _conjuncts(t.left) + _conjuncts(t.right)
    return [t]


def _guards(q: Quant) -> list[Term]:
    if q.kind is QuantKind.EXISTS:
        return _conjuncts(q.body)
    out: list[Term] = []
    body = q.body
    while isinstance(body, Binary) and body.op is BinOp.IMPLIES:
        out += _conjuncts(body.left)
        body = body.right
    return out


def _names_in(t: Term) -> set[str]:
    out = {t.name} if isinstance(t, Var) else set()
    for c in children(t):
        out |= _names_in(c)
    return out


_FLIP = {BinOp.GT: BinOp.LT, BinOp.GE: BinOp.LE}


class EvaluationBudgetExhausted(Exception):
    """The checker's budget is used up. Not a HoareGpuError on purpose: `check` turns those
    into a failure of the clause, and this must stop the run instead."""

    def __init__(self, budget: int, span: Span | None) -> None:
        super().__init__(f"more than {budget} quantifier instances evaluated")
        self.budget = budget
        self.span = span


@dataclass
class Failure:
    threads: list[int]  # failing threads (empty for a global formula)
    values: list[tuple[str, int]]  # what the first failing evaluation read
    error: str | None = None  # a run-time error inside the formula


class FormulaChecker:
    def __init__(
        self, kernel: Kernel, state: State, old: State, notes: list[str], budget: int | None = None
    ) -> None:
        self.kernel = kernel
        self.budget = budget  # quantifier instances for the checker's lifetime (None: no limit)
        self.instances = 0
        self.state = state
        self.old = old
        self.n = state.threads
        self.notes = notes
        self.trace: dict[str, int] | None = None
        self._window: tuple[int, int] | None = None
        # aggregates' running sums, valid for one `check` (the state does not change in it)
        self._prefixes: dict[tuple[int, int, int | None], bigops.Prefix] = {}
        self._closed_memo: dict[int, bool] = {}
        self._locals_memo: dict[int, list[str] | None] = {}

    # ---- entry point -------------------------------------------------------------------
    def check(self, formula: Formula, mask: list[int]) -> Failure | None:
        """The clause at the threads of `mask`; None when it holds. With no thread active a
        clause says nothing, even a global one (README, "Specification part"; the VC
        generator's `formula_active` and the proof checker's `read_active` agree)."""
        if not mask:
            return None
        self._window = None
        self._prefixes = {}
        per_thread = mentions_thread(formula.term, self.kernel)
        groups: list[list[int]] = self._thread_groups(formula.term, mask) if per_thread else [[]]
        failing: list[int] = []
        first: Failure | None = None
        first_error: str | None = None
        for group in groups:
            t = group[0] if group else None  # one evaluation stands for the group
            try:
                ok = self.ev(formula.term, t, {}, self.state) != 0
                err = None
            except HoareGpuError as e:
                ok, err = False, str(e) if t is None else f"at thread {t}: {e}"
                first_error = first_error or err
            if ok:
                continue
            failing += group
            if first is None:
                self.trace = {}
                with contextlib.suppress(HoareGpuError):
                    self.ev(formula.term, t, {}, self.state)
                first = Failure([], list(self.trace.items()), err)
                self.trace = None
        if first is None:
            return None
        first.threads = sorted(failing)
        first.error = first_error
        return first

    def _thread_groups(self, term: Term, mask: list[int]) -> list[list[int]]:
        """The threads of `mask` grouped by what `term` reads of them. A per-thread formula
        depends on its thread only through the thread's coordinates, `@` (the thread's
        block) and its locals, so threads that agree on every local it reads, now and in
        the old state, give it one value: a barrier invariant over a uniform loop counter is
        evaluated once, not once per thread. One group per thread when `term` reads a
        coordinate, `@` or a local array."""
        if id(term) not in self._locals_memo:
            self._locals_memo[id(term)] = _scalar_locals(term, self.kernel)
        names = self._locals_memo[id(term)]
        if names is None:
            return [[t] for t in mask]
        groups: dict[tuple[int | None, ...], list[int]] = {}
        for t in mask:
            key = tuple(
                st.scalars[n][t] if n in st.scalars else None for n in names for st in (self.state, self.old)
            )
            groups.setdefault(key, []).append(t)
        return list(groups.values())

    # ---- evaluation --------------------------------------------------------------------
    def ev(self, t: Term, thread: int | None, bound: dict[str, int], st: State) -> int:
        if isinstance(t, IntLit):
            return t.value
        if isinstance(t, Var):
            return self._var(t, thread, bound, st)
        if isinstance(t, ThreadId | BlockId):
            if thread is None:
                raise HoareGpuError(f"{builtin_name(t)} in a formula read as global")
            return st.geo.coord(Coord(isinstance(t, BlockId), t.axis), thread)
        if isinstance(t, ThreadCount | BlockCount):
            return st.geo.size(Coord(isinstance(t, BlockCount), t.axis))
        if isinstance(t, Unary):
            v = self.ev(t.operand, thread, bound, st)
            if t.op in FLOAT_UNOPS:
                return floats.unary(t.op, v, t.span)  # type: ignore[no-any-return]
            return -v if t.op is UnOp.NEG else (0 if v else 1)
        if isinstance(t, Binary):
            op = t.op
            if op in (BinOp.AND, BinOp.OR, BinOp.IMPLIES):
                a = self.ev(t.left, thread, bound, st) != 0
                if op is BinOp.AND and not a:
                    return 0
                if op is BinOp.OR and a:
                    return 1
                if op is BinOp.IMPLIES and not a:
                    return 1
                return 1 if self.ev(t.right, thread, bound, st) != 0 else 0
            a_val = self.ev(t.left, thread, bound, st)
            return binop_scalar(op, a_val, self.ev(t.right, thread, bound, st), t.span)
        if isinstance(t, Conditional):
            c = self.ev(t.cond, thread, bound, st)
            return self.ev(t.then if c else t.orelse, thread, bound, st)
        if isinstance(t, At):
            linear = self.ev(t.thread, thread, bound, st)
            block = None if t.block is None else self.ev(t.block, thread, bound, st)
            if st.geo.multi_block and thread is None and block is None:
                raise EvalError("@ names a thread of the current block, but no thread is current", t.span)
            at = st.geo.same_block_thread(linear, thread, block)
            if at is None or not 0 <= at < self.n:
                raise EvalError(f"@ names thread {linear}, outside its block", t.span)
            return self.ev(t.term, at, bound, st)
        if isinstance(t, Old):
            return self.ev(t.term, thread, bound, self.old)
        if isinstance(t, ThreadPred):
            self._charge(self.n, t.span)
            vals = (self.ev(t.term, i, bound, st) != 0 for i in range(self.n))
            if t.kind is ThreadPredKind.ALL:
                return 1 if all(vals) else 0
            return 1 if not any(vals) else 0
        if isinstance(t, Quant):
            return self._quant(t, thread, bound, st)
        if isinstance(t, Aggregate):
            low, high = self.ev(t.low, thread, bound, st), self.ev(t.high, thread, bound, st)

            def cell(k: int) -> int:
                return self.ev(t.body, thread, {**bound, t.name: k}, st)

            prefix = None
            if self._closed(t):  # the body reads no outer bound variable: running sums per state
                prefix = self._prefixes.setdefault((id(t), id(st), thread), bigops.Prefix())
            return bigops.evaluate(t, low, high, cell, lambda n: self._charge(n, t.span), prefix)
        raise HoareGpuError(f"cannot evaluate {t!r}")

    def _closed(self, agg: Aggregate) -> bool:
        """Whether the body's only free name not of the kernel is the aggregate's own."""
        if id(agg) not in self._closed_memo:
            free = {n for n in _names_in(agg.body) if n != agg.name and not self.kernel.has_decl(n)}
            self._closed_memo[id(agg)] = not free
        return self._closed_memo[id(agg)]

    def _var(self, t: Var, thread: int | None, bound: dict[str, int], st: State) -> int:
        if t.name in bound and not t.indices:
            return bound[t.name]
        if not self.kernel.has_decl(t.name):
            raise HoareGpuError(f"unbound name {t.name!r} in a formula")
        decl = self.kernel.decl(t.name)
        key = tuple(self.ev(i, thread, bound, st) for i in t.indices)
        text = decl.display_name + "".join(f"[{i}]" for i in key)
        if decl.kind is VarKind.SHARED:
            v = st.shared[t.name].get(key)
        else:
            if thread is None:
                raise HoareGpuError(f"local {decl.display_name} in a formula read as global")
            text += f"@{thread}"
            v = st.scalars[t.name][thread] if not key else st.local_arrays[t.name][thread].get(key)
        if st is self.old and st is not self.state:
            text = f"\\old({text})"
        if self.trace is not None:
            self.trace[text] = v
        return v

    # ---- quantifiers -------------------------------------------------------------------
    def window(self) -> tuple[int, int]:
        if self._window is None:
            idx = list(self.state.indices()) + list(self.old.indices())
            lo = min([0, *idx]) - MARGIN
            hi = max([self.n - 1, *idx]) + MARGIN
            self._window = (lo, hi)
        return self._window

    def domain(self, q: Quant, thread: int | None, bound: dict[str, int], st: State) -> list[range]:
        names = q.names
        lo: dict[str, int | None] = dict.fromkeys(names)
        hi: dict[str, int | None] = dict.fromkeys(names)
        rel: list[tuple[str, BinOp, str]] = []

        def tighten(v: str, low: int | None, high: int | None) -> None:
            if low is not None:
                cur = lo[v]
                lo[v] = low if cur is None else max(cur, low)
            if high is not None:
                cur = hi[v]
                hi[v] = high if cur is None else min(cur, high)

        for g in _guards(q):
            if not (isinstance(g, Binary) and g.op in (BinOp.LT, BinOp.LE, BinOp.GT, BinOp.GE, BinOp.EQ)):
                continue
            a, op, b = (g.right, _FLIP[g.op], g.left) if g.op in _FLIP else (g.left, g.op, g.right)
            for side, other, is_left in ((a, b, True), (b, a, False)):
                if not (isinstance(side, Var) and side.name in names and not side.indices):
                    continue
                if isinstance(other, Var) and other.name in names and not other.indices:
                    if is_left:
                        rel.append((side.name, op, other.name))
                    continue
                if _names_in(other) & set(names):
                    continue
                try:
                    c = self.ev(other, thread, bound, st)
                except HoareGpuError:
                    continue
                strict = 1 if op is BinOp.LT else 0
                if op is BinOp.EQ:
                    tighten(side.name, c, c)
                elif is_left:  # v < c  /  v <= c
                    tighten(side.name, None, c - strict)
                else:  # c < v  /  c <= v
                    tighten(side.name, c + strict, None)
        for _ in range(len(names) + 1):
            for x, op, y in rel:
                s = 1 if op is BinOp.LT else 0
                hy, lx = hi[y], lo[x]
                tighten(x, None, None if hy is None else hy - s)
                tighten(y, None if lx is None else lx + s, None)
                if op is BinOp.EQ:
                    tighten(x, lo[y], None)
                    tighten(y, None, hi[x])
        wlo, whi = self.window()
        out: list[range] = []
        for v in names:
            low, high = lo[v], hi[v]
            if low is None or high is None:
                sides = (
                    "lower and upper" if low is None and high is None else "lower" if low is None else "upper"
                )
                low = wlo if low is None else low
                high = whi if high is None else high
                self._note(
                    q,
                    f"no {sides} bound for {v} in the guard; used the window of indices the state "
                    f"mentions ± {MARGIN} (e.g. [{low}, {high}])",
                )
            out.append(range(low, high + 1))
        total = 1
        for r in out:
            total *= max(len(r), 0)
        if total > DOMAIN_LIMIT:
            per = max(1, int(DOMAIN_LIMIT ** (1 / len(out))))
            out = [r[:per] for r in out]
            self._note(q, f"domain of {total} cases cut to {per} values per variable")
        return out

    def _charge(self, cost: int, span: Span | None) -> None:
        self.instances += cost
        if self.budget is not None and self.instances > self.budget:
            raise EvaluationBudgetExhausted(self.budget, span)

    def _note(self, q: Quant, what: str) -> None:
        where = f"{q.span}: " if q.span else ""
        msg = f"{where}quantifier checked on a bounded domain: {what}"
        stem = msg.split(" (e.g.")[0]
        if not any(n.split(" (e.g.")[0] == stem for n in self.notes):
            self.notes.append(msg)

    def _quant(self, q: Quant, thread: int | None, bound: dict[str, int], st: State) -> int:
        ranges = self.domain(q, thread, bound, st)
        forall = q.kind is QuantKind.FORALL
        saved = dict(self.trace) if self.trace is not None else None
        inner = dict(bound)
        for combo in itertools.product(*ranges):
            self._charge(1, q.span)
            if saved is not None:
                self.trace = dict(saved)
                self.trace.update(zip(q.names, combo, strict=True))
            inner.update(zip(q.names, combo, strict=True))
            holds = self.ev(q.body, thread, inner, st) != 0
            if holds != forall:
                return 0 if forall else 1
        if saved is not None:
            self.trace = saved
        return 1 if forall else 0
