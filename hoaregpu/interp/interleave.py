"""The interleaving semantics of paper §5 (Figs. 3 and 4), with seeded random schedules.

Every thread has a program (a stack of statements still to run, `Seq` flattened, as the
paper identifies programs up to associativity) and a control stack of (label, k) pairs.
`if` pushes (l, 1) or (l, 2) and an `endif` marker that pops it; `while` keeps (l, k) for
its k-th iteration (the paper's s + l and s \\ l). One step runs one statement of one
thread, chosen by a `random.Random(seed)`. A thread whose next statement is `sync`
waits; when no thread can move, the barrier is passed if every thread waits at it with
the same control stack (I-SYNC), and otherwise the run stops with `barrier-divergence`
(threads finished or at different barriers / iterations).

Checks in this semantics are per thread: `assert` and loop invariants are checked at
the thread that reaches them (a formula that reads other threads' state may see them at
any point of their run), `assume` stops the run when it fails at that thread. The race
detector sees the same accesses as in lockstep and reports the same races. The step
budget counts thread steps.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core import Assert, Assign, Assume, Exit, If, Opaque, Seq, Skip, Stmt, Sync, VarKind, While
from ..errors import HoareGpuError
from ..terms import Term
from .calls import run_call
from .evaluate import EvalError
from .lockstep import Machine, Stop, threads_text
from .results import (
    ASSUMPTION,
    ASSUMPTION_VIOLATED,
    BARRIER_DIVERGENCE,
    CHECK_LABEL,
    LOOP_INVARIANT,
    RUNTIME_ERROR,
    STEP_BUDGET,
    Violation,
)


@dataclass(frozen=True, eq=False)
class LIf:
    label: int
    stmt: If
    then: Node
    orelse: Node


@dataclass(frozen=True, eq=False)
class LWhile:
    label: int
    stmt: While
    body: Node


@dataclass(frozen=True, eq=False)
class LSeq:
    stmts: tuple[Node, ...]


@dataclass(frozen=True, eq=False)
class EndIf:
    label: int


Node = LIf | LWhile | LSeq | Assign | Skip | Sync | Assert | Assume | Opaque
Item = Node | EndIf


def label(stmt: Stmt, counter: list[int]) -> Node:
    """The program with a fresh label on every if and while (labels unique in the program)."""
    if isinstance(stmt, Seq):
        return LSeq(tuple(label(s, counter) for s in stmt.stmts))
    if isinstance(stmt, If):
        counter[0] += 1
        return LIf(counter[0], stmt, label(stmt.then, counter), label(stmt.orelse, counter))
    if isinstance(stmt, While):
        counter[0] += 1
        return LWhile(counter[0], stmt, label(stmt.body, counter))
    if isinstance(stmt, Opaque) and (stmt.atomic is not None or stmt.declared_only):
        return stmt  # one step of the thread (hoaregpu.interp.calls)
    if isinstance(stmt, Opaque):
        return label(stmt.body, counter)  # the interpreters run a contract call's body
    if isinstance(stmt, Exit):
        raise AssertionError("exits are eliminated right after lowering (hoaregpu.early_exit)")
    return stmt


class Interleaving(Machine):
    def ev(self, term: Term, thread: int) -> int:
        return self.expr(term)(self.ctx, [thread])[0]

    def run(self, body: Stmt) -> None:
        prog = label(body, [0])
        progs: list[list[Item]] = [[prog] for _ in range(self.n)]
        stacks: list[list[tuple[int, int]]] = [[] for _ in range(self.n)]
        while True:
            runnable: list[int] = []
            for i in range(self.n):
                p = progs[i]
                while p and isinstance(p[-1], LSeq):
                    p.extend(reversed(p.pop().stmts))  # type: ignore[union-attr]
                if p and not isinstance(p[-1], Sync):
                    runnable.append(i)
            if runnable:
                i = self.rng.choice(runnable)
                self.steps += 1
                self.thread_steps += 1
                if self.steps > self.budget:
                    msg = f"step budget exhausted after {self.budget} thread steps"
                    raise Stop(Violation(STEP_BUDGET, msg, None))
                try:
                    self.step(i, progs[i], stacks[i])
                except EvalError as e:
                    raise Stop(Violation(RUNTIME_ERROR, e.message, e.span or self.ctx.span, (i,))) from None
                continue
            if not any(progs):
                return
            # a barrier synchronises one block: release every block whose threads all wait
            # at the same barrier (one block when the kernel has no block coordinate); a grid
            # barrier releases when every thread of the grid waits at it
            divergent: tuple[list[int], list[int]] | None = None
            released = False
            at_grid = [i for i in range(self.n) if progs[i] and _grid_sync(progs[i][-1])]
            if at_grid and len(at_grid) == self.n and all(stacks[i] == stacks[0] for i in at_grid):
                for i in at_grid:
                    progs[i].pop()
                if self.races is not None:
                    self.races.barrier()
                continue
            for group in self.blocks:
                if any(_grid_sync(progs[i][-1]) for i in group if progs[i]):
                    # threads of this block wait for the grid: it cannot be released alone
                    if divergent is None and not all(progs[i] and _grid_sync(progs[i][-1]) for i in group):
                        divergent = (group, [i for i in group if progs[i]])
                    continue
                waiting = [i for i in group if progs[i]]
                if not waiting:
                    continue
                if len(waiting) == len(group) and all(stacks[i] == stacks[group[0]] for i in group):
                    for i in group:
                        progs[i].pop()
                    released = True
                    if self.races is not None:
                        self.races.barrier(group if len(group) < self.n else None)
                elif divergent is None:
                    divergent = (group, waiting)
            if released:
                continue
            if divergent is None:  # every block waits at the grid barrier, the grid does not
                waiting = [i for i in range(self.n) if progs[i]]
                divergent = (list(range(self.n)), waiting)
            assert divergent is not None
            group, waiting = divergent
            first = progs[waiting[0]][-1]
            span = first.span if isinstance(first, Sync) else None
            done = sorted(set(group) - set(waiting))
            why = f"threads {threads_text(done)} finished" if done else "threads wait at different barriers"
            msg = f"barrier divergence: threads {threads_text(waiting)} wait at a barrier but {why}"
            raise Stop(Violation(BARRIER_DIVERGENCE, msg, span, tuple(waiting)))

    def step(self, i: int, prog: list[Item], stack: list[tuple[int, int]]) -> None:
        s = prog.pop()
        self.ctx.span = s.stmt.span if isinstance(s, (LIf, LWhile)) else getattr(s, "span", None)
        if isinstance(s, Assign):
            self.assign(s, i)
        elif isinstance(s, LIf):
            k = 1 if self.ev(s.stmt.cond, i) else 2
            prog.append(EndIf(s.label))
            prog.append(s.then if k == 1 else s.orelse)
            stack.append((s.label, k))
        elif isinstance(s, EndIf):
            if not stack or stack[-1][0] != s.label:
                raise HoareGpuError("endif does not match the control stack")
            stack.pop()
        elif isinstance(s, LWhile):
            for inv in s.stmt.invariants:
                self.checks.formula(LOOP_INVARIANT, "loop invariant", inv, [i])
            top = stack[-1] if stack and stack[-1][0] == s.label else None
            if self.ev(s.stmt.cond, i):
                if top is not None:
                    stack[-1] = (s.label, top[1] + 1)
                else:
                    stack.append((s.label, 1))
                prog.append(s)
                prog.append(s.body)
            elif top is not None:
                stack.pop()
        elif isinstance(s, Assert):
            self.checks.formula(s.check.value, CHECK_LABEL[s.check], s.formula, [i])
        elif isinstance(s, Assume):
            fail = None if s.forget else self.checks.check(s.formula, [i])  # a cut: as in lockstep
            if fail is not None:
                v = Violation(
                    ASSUMPTION, f"assumption violated at thread {i}", s.formula.span, (i,), tuple(fail.values)
                )
                raise Stop(v, ASSUMPTION_VIOLATED)
        elif isinstance(s, Skip):
            pass
        elif isinstance(s, Opaque):
            run_call(self, s, [i])
        else:
            raise HoareGpuError(f"cannot execute {s!r}")

    def assign(self, s: Assign, i: int) -> None:
        key = tuple(self.ev(e, i) for e in s.indices)
        v = self.ev(s.value, i)
        decl = self.kernel.decl(s.target)
        if decl.kind is VarKind.LOCAL:
            if key:
                self.state.local_arrays[s.target][i].cells[key] = v
            else:
                self.state.scalars[s.target][i] = v
            return
        arr = self.state.shared[s.target]
        if self.races is not None:
            self.races.write(s.target, key, i, v, arr.get(key), s.span)
        arr.cells[key] = v


def _grid_sync(item: Item) -> bool:
    return isinstance(item, Sync) and item.grid
