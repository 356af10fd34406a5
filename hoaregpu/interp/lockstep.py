"""The lockstep semantics of paper Fig. 1, with run-time checks of the annotations.

`P, μ, σ ⇓ σ'` is executed with μ a sorted list of active threads:

- `x[ē] := e` evaluates ē and e at every active thread first, then writes. For a shared
  x, threads writing different values to one cell are a write conflict (E-SASSIGN is
  nondeterministic there): the value of one writer, picked by the seeded RNG, is kept
  and the conflict is reported (`write-conflict`).
- `if e then P else Q` runs P with μ ∩ ⟦e⟧, then Q with μ \\ ⟦e⟧ (E-IF). A branch with an
  empty mask is skipped; by Fig. 1 it could not change anything.
- `while e do P` runs P with μ ∩ ⟦e⟧ while that set is non-empty, the set shrinking with
  each round (E-WHILETRUE): a thread that left the loop does not come back, even if its
  guard becomes true again (the §4.1 non-monotonic example).
- `sync` with μ = all threads ends a barrier interval (race sets reset), with μ = ∅ does
  nothing, and otherwise stops the run with a `barrier-divergence` error (the strict
  barrier of §7): the report names the barrier's line and the active threads.

Checks: `assert` at the active threads (then execution goes on), loop invariants at
every visit of the loop head with the mask the loop was reached with, `assume`
(a failure stops the run as "assumption violated"). `requires`/`ensures` are checked by
`execute`. The step budget counts lockstep steps: statements (and loop-guard
evaluations) executed with a non-empty mask; the same budget bounds, separately, the
quantifier instances evaluated by clause checks (see formulas.py).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ..core import Assert, Assign, Assume, Formula, If, Kernel, Opaque, Seq, Skip, Stmt, Sync, VarKind, While
from ..errors import HoareGpuError, Span
from ..terms import Term
from .calls import run_call
from .evaluate import Ctx, EvalError, VecFn, compile_expr
from .formulas import EvaluationBudgetExhausted, Failure, FormulaChecker
from .races import RaceDetector
from .results import (
    ASSUMPTION,
    ASSUMPTION_VIOLATED,
    BARRIER_DIVERGENCE,
    CHECK_LABEL,
    FAILED,
    LOOP_INVARIANT,
    RUNTIME_ERROR,
    STEP_BUDGET,
    STOPPED,
    WRITE_CONFLICT,
    Violation,
)
from .values import State


def _blocks(state: State) -> list[list[int]]:
    """The thread numbers of each block."""
    groups: dict[tuple[int, ...], list[int]] = {}
    for t in range(state.threads):
        groups.setdefault(state.geo.block_of(t), []).append(t)
    return list(groups.values())


def threads_text(ts: list[int] | tuple[int, ...]) -> str:
    """`0-3,7` for [0, 1, 2, 3, 7]."""
    parts: list[str] = []
    ts = sorted(ts)
    i = 0
    while i < len(ts):
        j = i
        while j + 1 < len(ts) and ts[j + 1] == ts[j] + 1:
            j += 1
        parts.append(str(ts[i]) if i == j else f"{ts[i]}-{ts[j]}")
        i = j + 1
    return ",".join(parts) or "none"


class Stop(Exception):
    def __init__(self, violation: Violation, status: str = STOPPED) -> None:
        super().__init__(violation.message)
        self.violation = violation
        self.status = status


class Checks:
    """Reporting shared by both interpreters: formula checks and deduplicated violations."""

    def __init__(
        self,
        kernel: Kernel,
        state: State,
        old: State,
        budget: int | None = None,
        stop_on: Callable[[Violation], bool] | None = None,
    ) -> None:
        self.kernel = kernel
        self.stop_on = stop_on  # a violation that ends the run (the one a caller looks for)
        self.notes: list[str] = []
        self.checker = FormulaChecker(kernel, state, old, self.notes, budget)
        self.violations: list[Violation] = []
        self._seen: set[tuple[str, Span | None]] = set()

    def add(self, v: Violation) -> None:
        key = (v.kind, v.span)
        if key in self._seen:
            return
        self._seen.add(key)
        self.violations.append(v)
        if self.stop_on is not None and self.stop_on(v):
            raise Stop(v, FAILED)

    def check(self, f: Formula, mask: list[int]) -> Failure | None:
        """The clause at `mask`; a used-up evaluation budget stops the run (`step-budget`)."""
        try:
            return self.checker.check(f, mask)
        except EvaluationBudgetExhausted as e:
            msg = (
                f"step budget exhausted while checking this clause: {e} "
                "(quantified clauses are checked instance by instance; raise --step-budget)"
            )
            raise Stop(Violation(STEP_BUDGET, msg, f.span or e.span)) from None

    def formula(self, kind: str, what: str, f: Formula, mask: list[int]) -> Violation | None:
        fail = self.check(f, mask)
        if fail is None:
            return None
        msg = f"{what} does not hold"
        if fail.threads:
            msg += f" at thread{'s' if len(fail.threads) > 1 else ''} {threads_text(fail.threads)}"
        if fail.error:
            msg += f" ({fail.error})"
        v = Violation(kind, msg, f.span, tuple(fail.threads), tuple(fail.values))
        self.add(v)
        return v


class Machine:
    """What both semantics share: the state, checks, seeded choices, the step budget and
    compiled expressions (cached by node; the term is kept alive so its id stays unique)."""

    def __init__(
        self,
        kernel: Kernel,
        state: State,
        checks: Checks,
        seed: int,
        step_budget: int,
        races: RaceDetector | None,
    ) -> None:
        self.kernel = kernel
        self.state = state
        self.n = state.threads
        self.blocks = _blocks(state)
        self.ctx = Ctx(state, races)
        self.races = races
        self.checks = checks
        self.rng = random.Random(seed)
        self.budget = step_budget
        self.steps = 0
        self.thread_steps = 0
        self._compiled: dict[int, tuple[Term, VecFn]] = {}
        self.atomic_terms: dict[int, tuple[Term, Term]] = {}  # hoaregpu.interp.calls

    def expr(self, term: Term) -> VecFn:
        hit = self._compiled.get(id(term))
        if hit is None:
            hit = (term, compile_expr(term, self.kernel))
            self._compiled[id(term)] = hit
        return hit[1]


class Lockstep(Machine):
    def _step(self, mask: list[int], span: Span | None) -> None:
        self.ctx.span = span
        self.steps += 1
        self.thread_steps += len(mask)
        if self.steps > self.budget:
            raise Stop(
                Violation(STEP_BUDGET, f"step budget exhausted after {self.budget} lockstep steps", span)
            )

    def run(self, s: Stmt, mask: list[int]) -> None:
        if not mask:
            return
        try:
            self._run(s, mask)
        except EvalError as e:
            threads = (e.thread,) if e.thread is not None else ()
            raise Stop(Violation(RUNTIME_ERROR, e.message, e.span or self.ctx.span, threads)) from None

    def _run(self, s: Stmt, mask: list[int]) -> None:
        if isinstance(s, Seq):
            for c in s.stmts:
                self._run(c, mask)
        elif isinstance(s, Assign):
            self._step(mask, s.span)
            self.assign(s, mask)
        elif isinstance(s, If):
            self._step(mask, s.span)
            cv = self.expr(s.cond)(self.ctx, mask)
            then = [t for t, v in zip(mask, cv, strict=True) if v]
            if then:
                self._run(s.then, then)
            if len(then) < len(mask):
                self._run(s.orelse, [t for t, v in zip(mask, cv, strict=True) if not v])
        elif isinstance(s, While):
            self.loop(s, mask)
        elif isinstance(s, Opaque) and (s.atomic is not None or s.declared_only):
            self._step(mask, s.span)
            run_call(self, s, mask)  # atomics, declared-only functions (interp/calls.py)
        elif isinstance(s, Opaque):
            self._run(s.body, mask)  # a call through a contract runs its body here
        elif isinstance(s, Sync):
            self._step(mask, s.span)
            if len(mask) == self.n:  # every thread of every block: no divergence possible
                if self.races is not None:
                    self.races.barrier()
                return
            active = set(mask)
            if s.grid:  # a grid barrier: the strict rule over every thread of every block
                idle = [t for t in range(self.n) if t not in active]
                msg = f"grid barrier reached by threads {threads_text(mask)} but not by {threads_text(idle)}"
                raise Stop(Violation(BARRIER_DIVERGENCE, msg, s.span, tuple(mask)))
            # the strict rule of §7, per block: all of a block's threads reach it, or none
            for group in self.blocks:
                reached = [t for t in group if t in active]
                if reached and len(reached) < len(group):
                    idle = [t for t in group if t not in active]
                    msg = (
                        f"barrier reached by thread{'s' if len(reached) > 1 else ''} {threads_text(reached)} "
                        f"but not by {threads_text(idle)}"
                    )
                    raise Stop(Violation(BARRIER_DIVERGENCE, msg, s.span, tuple(reached)))
                if reached and self.races is not None:
                    self.races.barrier(group)

        elif isinstance(s, Assert):
            self._step(mask, s.span)
            self.checks.formula(s.check.value, CHECK_LABEL[s.check], s.formula, mask)
        elif isinstance(s, Assume):
            self._step(mask, s.span)
            # a barrier invariant's cut changes nothing in a run: its clauses were checked
            # just before (`Assert`s of their own), and a false one is a violation there,
            # not a run to discard as outside an assumption
            fail = None if s.forget else self.checks.check(s.formula, mask)
            if fail is not None:
                msg = "assumption violated"
                if fail.threads:
                    msg += f" at threads {threads_text(fail.threads)}"
                v = Violation(ASSUMPTION, msg, s.formula.span, tuple(fail.threads), tuple(fail.values))
                raise Stop(v, ASSUMPTION_VIOLATED)
        elif isinstance(s, Skip):
            self._step(mask, s.span)
        else:
            raise HoareGpuError(f"cannot execute {s!r}")

    def loop(self, s: While, mask: list[int]) -> None:
        guard = self.expr(s.cond)
        active = mask
        while True:
            for inv in s.invariants:
                self.checks.formula(LOOP_INVARIANT, "loop invariant", inv, mask)
            self._step(active, s.span)
            gv = guard(self.ctx, active)
            active = [t for t, v in zip(active, gv, strict=True) if v]
            if not active:
                return
            self._run(s.body, active)

    def assign(self, s: Assign, mask: list[int]) -> None:
        ctx = self.ctx
        idx = [self.expr(i)(ctx, mask) for i in s.indices]
        vals = self.expr(s.value)(ctx, mask)
        decl = self.kernel.decl(s.target)
        if decl.kind is VarKind.LOCAL:
            if not idx:
                col = self.state.scalars[s.target]
                for t, v in zip(mask, vals, strict=True):
                    col[t] = v
            else:
                arrs = self.state.local_arrays[s.target]
                for t, k, v in zip(mask, zip(*idx, strict=True), vals, strict=True):
                    arrs[t].cells[k] = v
            return
        keys: list[tuple[int, ...]] = (
            [(i,) for i in idx[0]]
            if len(idx) == 1
            else list(zip(*idx, strict=True))
            if idx
            else [()] * len(mask)
        )
        new: dict[tuple[int, ...], int] = {}
        writer: dict[tuple[int, ...], int] = {}
        multi: dict[tuple[int, ...], list[tuple[int, int]]] | None = None
        for t, k, v in zip(mask, keys, vals, strict=True):
            if k in new:
                if multi is None:
                    multi = {}
                multi.setdefault(k, [(writer[k], new[k])]).append((t, v))
            else:
                new[k] = v
                writer[k] = t
        arr = self.state.shared[s.target]
        if self.races is not None:
            for t, k, v in zip(mask, keys, vals, strict=True):
                self.races.write(s.target, k, t, v, arr.get(k), s.span)
        if multi:
            for k, ws in multi.items():
                if len({v for _, v in ws}) > 1:
                    t, v = self.rng.choice(ws)
                    new[k] = v
                    where = decl.display_name + "".join(f"[{i}]" for i in k)
                    detail = ", ".join(f"thread {u} writes {w}" for u, w in ws[:6])
                    msg = f"write conflict on {where}: {detail}; kept {v} from thread {t} (seeded choice)"
                    values = tuple((f"{where} by thread {u}", w) for u, w in ws[:6])
                    self.checks.add(Violation(WRITE_CONFLICT, msg, s.span, tuple(u for u, _ in ws), values))
        arr.cells.update(new)
