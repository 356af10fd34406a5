"""The ghost code of the race checks: per-thread access logs and a check before every
access (spec-language §5; paper Definition 5.4; docs/races.md). hoaregpu.races builds the race
kernel from it.


`instrument(kernel)` returns a kernel whose ordinary VCs (asserts of kind `data-race`) say
that the original kernel has no data race. Every thread keeps, per memory array `a` that
the kernel writes somewhere (arrays never written cannot race), three ghost access logs:
its reads, its writes and its atomic updates of `a`. A log records *one* access, chosen
nondeterministically at each access (GPUVerify's pick-one abstraction): a flag (0 nothing
recorded; the access site s >= 1 when recorded in the current barrier interval; -s when in
an earlier one: only global memory keeps those, for the threads of other blocks), the cell,
and for writes the value written. Before the access of cell c by thread `me`:

    assert \\forall u (another thread): ¬ conflict(log of u, c)

where a read conflicts with a recorded write or atomic, a write with a recorded read or
atomic or a write of a *different value* (same-value writes are tolerated, as the paper's
Definition 5.4(b) and GPUVerify's default do), an atomic with a recorded read or write. The
other thread is of the same block with flag >= 1, or (global memory, several blocks) of
another block with flag != 0. Within one statement the reads are checked and logged first,
then the write is logged and checked: a write racing with another thread's read or write
of the same statement is found. A barrier lowers the flags of the memory its fences order.

Since the VC quantifies over every choice, a race between two accesses is found on the
path where the earlier access is the one recorded. The logs are ghost locals: no program
variable reads them, so the kernel's behaviour (and its other VCs) is unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from itertools import count

from . import core
from .errors import Span
from .launch import Coord
from .term_walk import conjoin, subterms
from .terms import At, Binary, BinOp, Conditional, IntLit, Quant, QuantKind, Term, Var

READ, WRITE, ATOMIC = "read", "write", "atomic"
# what each kind of access conflicts with in another thread's logs
CONFLICTS = {READ: (WRITE, ATOMIC), WRITE: (READ, WRITE, ATOMIC), ATOMIC: (READ, WRITE)}
PREFIX = "hg.race"  # `.` cannot occur in a C name or a lowering rename: ghosts never clash


def flag(array: str, kind: str) -> str:
    return f"{PREFIX}.{kind}.{array}"


def offset(array: str, kind: str, k: int) -> str:
    return f"{PREFIX}.{kind}.{array}.{k}"


def value_of(array: str) -> str:
    return f"{PREFIX}.value.{array}"


CHOICE = f"{PREFIX}.choice"
UNKNOWN_CELL = f"{PREFIX}.cell"  # a cell a body-less call may write (any cell)
UNKNOWN_VALUE = f"{PREFIX}.any"


def _or(ts: list[Term]) -> Term:
    out = ts[0] if ts else IntLit(0)
    for t in ts[1:]:
        out = Binary(BinOp.OR, out, t)
    return out


def _not(t: Term) -> Term:
    from .terms import Unary, UnOp

    return Unary(UnOp.NOT, t)


def _linear(coords: list[Coord]) -> Term:
    """The linear id `x + y*bdx + z*bdx*bdy` over the live coordinates of one kind."""
    out: Term | None = None
    for c in reversed(coords):
        idx = c.index_term()
        out = idx if out is None else Binary(BinOp.ADD, idx, Binary(BinOp.MUL, c.size_term(), out))
    return out if out is not None else IntLit(0)


def _size(coords: list[Coord]) -> Term:
    out: Term | None = None
    for c in coords:
        out = c.size_term() if out is None else Binary(BinOp.MUL, out, c.size_term())
    return out if out is not None else IntLit(1)


@dataclass(frozen=True)
class Site:
    """An access the instrumentation checks and logs (the numbers in the flags)."""

    kind: str
    array: str
    span: Span | None
    call: str | None = None  # a call not looked into, whose access is of *any* cell


@dataclass(frozen=True)
class Access:
    array: str
    cell: tuple[Term, ...]
    kind: str
    span: Span | None
    value: Term | None = None  # writes: the value stored
    call: str | None = None  # the function, when a call's access of an arbitrary cell


@dataclass
class Instrumenter:
    kernel: core.Kernel
    checked: frozenset[str]  # memory arrays written somewhere: the only ones that can race
    atomic: frozenset[str]  # those updated by atomics
    global_: frozenset[str]  # global memory (not `__shared__`)
    thread_coords: list[Coord]
    block_coords: list[Coord]
    tolerant: frozenset[str]  # arrays whose writes of the same value by two threads are no race
    sites: dict[int, Site] = field(default_factory=dict)
    _sites: count[int] = field(default_factory=lambda: count(1))
    # the accesses logged inside each loop being instrumented, innermost last
    _loops: list[list[Access]] = field(default_factory=list)
    # candidate loop invariants about the logs (hoaregpu.race_invariants), by their span's column
    candidates: dict[int, core.Formula] = field(default_factory=dict)
    # (array, kind) of the accesses the kernel makes: a log no access writes stays 0, so
    # checks leave it out (None: not known yet, on the first pass that collects `logged`)
    present: frozenset[tuple[str, str]] | None = None
    logged: set[tuple[str, str]] = field(default_factory=set)
    # the arrays of `checked` that some statement writes (None: all): the others are logged
    # only for the access facts (`\\read(a, i)`, hoaregpu.access_facts) and cannot race
    written: frozenset[str] | None = None

    def site(self, acc: Access) -> int:
        n = next(self._sites)
        self.sites[n] = Site(acc.kind, self.kernel.decl(acc.array).display_name, acc.span, acc.call)
        return n

    @property
    def multi_block(self) -> bool:
        return bool(self.block_coords)

    def global_id(self) -> Term:
        """The thread's linear id in the grid: in-block id + block size * block id."""
        here = _linear(self.thread_coords)
        if not self.block_coords:
            return here
        return Binary(
            BinOp.ADD, Binary(BinOp.MUL, _linear(self.block_coords), _size(self.thread_coords)), here
        )

    # -- ghost declarations ----------------------------------------------------

    def kinds(self, a: str) -> tuple[str, ...]:
        """The logs array `a` has: the kinds of access the kernel makes of it (all three, on
        the first pass that finds them out)."""
        if self.present is None:
            return (READ, WRITE, ATOMIC) if a in self.atomic else (READ, WRITE)
        return tuple(k for k in (READ, WRITE, ATOMIC) if (a, k) in self.present)

    def ghost_decls(self) -> list[core.VarDecl]:
        names = [CHOICE, UNKNOWN_VALUE]
        dims = max((self.kernel.decl(a).dim for a in self.checked), default=0)
        names += [f"{UNKNOWN_CELL}.{k}" for k in range(dims)]
        for a in sorted(self.checked):
            for kind in self.kinds(a):
                names.append(flag(a, kind))
                names += [offset(a, kind, k) for k in range(self.kernel.decl(a).dim)]
            names.append(value_of(a))
        return [core.VarDecl(n, core.VarKind.LOCAL, 0, core.VarRole.SYNTHETIC) for n in names]

    # -- accesses of terms -----------------------------------------------------

    def reads(self, terms: tuple[Term, ...], span: Span | None) -> list[Access]:
        out: list[Access] = []
        seen: set[tuple[str, tuple[Term, ...]]] = set()
        for t in terms:
            for s in subterms(t):
                if isinstance(s, Var) and s.name in self.checked and (s.name, s.indices) not in seen:
                    seen.add((s.name, s.indices))
                    out.append(Access(s.name, s.indices, READ, s.span or span))
        return out

    # -- the check and the log of one access ---------------------------------------

    def _other(self, name: str, u: Term, b: Term | None) -> Term:
        return At(Var(name), u, None, b)

    def conflict(self, acc: Access, u: Term, b: Term | None, same_block: Term | None) -> Term:
        """`same_block`: None when the other thread is of this block (a recorded access is
        one of this interval), else the condition that it is (an earlier interval's access
        of another block conflicts as well)."""
        parts: list[Term] = []
        for kind in CONFLICTS[acc.kind]:
            if kind not in self.kinds(acc.array):
                continue
            f = self._other(flag(acc.array, kind), u, b)
            now: Term = Binary(BinOp.GE, f, IntLit(1))
            recorded = (
                now if same_block is None else Conditional(same_block, now, Binary(BinOp.NE, f, IntLit(0)))
            )
            same = [recorded]
            same += [
                Binary(BinOp.EQ, self._other(offset(acc.array, kind, k), u, b), c)
                for k, c in enumerate(acc.cell)
            ]
            if acc.kind == WRITE and kind == WRITE and acc.value is not None and acc.array in self.tolerant:
                # the same value written by both is tolerated (Definition 5.4(b); `BENIGN_WRITES`)
                same.append(Binary(BinOp.NE, self._other(value_of(acc.array), u, b), acc.value))
            parts.append(conjoin(same))
        return _or(parts)

    def check(self, acc: Access) -> core.Assert:
        me, bs = _linear(self.thread_coords), _size(self.thread_coords)
        # the witness is named after the site, so that a counterexample says which access
        u = Var(f"{PREFIX}.u.{self.site(acc)}")
        in_block = [Binary(BinOp.LE, IntLit(0), u), Binary(BinOp.LT, u, bs)]
        if acc.array in self.global_ and self.multi_block:
            b = Var(f"{PREFIX}.b")
            mine = _linear(self.block_coords)
            same_block = Binary(BinOp.EQ, b, mine)
            guard = conjoin(
                [
                    *in_block,
                    Binary(BinOp.LE, IntLit(0), b),
                    Binary(BinOp.LT, b, _size(self.block_coords)),
                    _not(conjoin([same_block, Binary(BinOp.EQ, u, me)])),
                ]
            )
            body = Binary(BinOp.IMPLIES, guard, _not(self.conflict(acc, u, b, same_block)))
            term: Term = Quant(QuantKind.FORALL, (u.name, b.name), body, acc.span)
        else:
            guard = conjoin([*in_block, Binary(BinOp.NE, u, me)])
            body = Binary(BinOp.IMPLIES, guard, _not(self.conflict(acc, u, None, None)))
            term = Quant(QuantKind.FORALL, (u.name,), body, acc.span)
        span = acc.span or self.kernel.span or Span("<kernel>", 1, 1)
        return core.Assert(core.Formula(term, span), span, core.CheckKind.DATA_RACE)

    def log(self, acc: Access) -> list[core.Stmt]:
        """Record the access or not (a nondeterministic choice per thread)."""
        a, kind = acc.array, acc.kind
        self.logged.add((a, kind))
        if self._loops:
            self._loops[-1].append(acc)
        record: list[core.Stmt] = [
            core.Assign(flag(a, kind), (), IntLit(self.site(acc)), acc.span),
            *(core.Assign(offset(a, kind, k), (), c, acc.span) for k, c in enumerate(acc.cell)),
        ]
        if kind == WRITE and acc.value is not None:
            record.append(core.Assign(value_of(a), (), acc.value, acc.span))
        choose = core.Opaque(core.Skip(), "race-log", acc.span, havoc=(CHOICE,), declared_only=True)
        return [choose, core.If(Var(CHOICE), core.Seq(tuple(record)), core.Skip(), acc.span)]

    def around(self, reads: list[Access], writes: list[Access]) -> list[core.Stmt]:
        out: list[core.Stmt] = [
            self.check(r) for r in reads if self.written is None or r.array in self.written
        ]
        for r in reads:
            out += self.log(r)
        for w in writes:
            out += self.log(w)
            out.append(self.check(w))
        return out

    # -- statements ----------------------------------------------------------------

    def stmt(self, s: core.Stmt) -> core.Stmt:
        if isinstance(s, core.Assign):
            reads = self.reads((*s.indices, s.value), s.span)
            writes = [Access(s.target, s.indices, WRITE, s.span, s.value)] if s.target in self.checked else []
            return sequence([*self.around(reads, writes), s])
        if isinstance(s, core.Seq):
            return replace(s, stmts=tuple(self.stmt(x) for x in s.stmts))
        if isinstance(s, core.If):
            before = self.around(self.reads((s.cond,), s.span), [])
            return sequence([*before, replace(s, then=self.stmt(s.then), orelse=self.stmt(s.orelse))])
        if isinstance(s, core.While):
            from .race_invariants import loop_candidates

            self._loops.append([])
            evaluate = self.around(self.reads((s.cond,), s.span), [])
            body = sequence([self.stmt(s.body), *evaluate])
            inside = self._loops.pop()
            if self._loops:
                self._loops[-1].extend(inside)
            extra = loop_candidates(self, s, inside)
            return sequence([*evaluate, replace(s, body=body, invariants=(*s.invariants, *extra))])
        if isinstance(s, core.Sync):
            return sequence([s, *self.barrier(s)])
        if isinstance(s, core.Opaque):
            return self.opaque(s)
        return s

    def opaque(self, s: core.Opaque) -> core.Stmt:
        if s.atomic is not None:
            at = s.atomic
            reads = self.reads((*at.indices, *at.operands), s.span)
            return sequence([*self.around(reads, [Access(at.target, at.indices, ATOMIC, s.span)]), s])
        # a call not looked into: any cell of the arrays it may write (a declared-only call's
        # pointer arguments) or read (a body's memory reads) counts as accessed
        dims = [
            f"{UNKNOWN_CELL}.{k}"
            for k in range(max((self.kernel.decl(a).dim for a in self.checked), default=0))
        ]
        written = [x for x in s.havoc if x in self.checked]
        read = sorted({r.array for r in self.reads(_body_terms(s.body), s.span)} - set(written))
        accesses: list[core.Stmt] = []
        for a, kind in [*((x, READ) for x in read), *((x, WRITE) for x in written)]:
            cell = tuple(Var(d) for d in dims[: self.kernel.decl(a).dim])
            value = Var(UNKNOWN_VALUE) if kind == WRITE else None
            havoc = (*dims, UNKNOWN_VALUE)
            accesses.append(
                core.Opaque(core.Skip(), "race-any-cell", s.span, havoc=havoc, declared_only=True)
            )
            acc = Access(a, cell, kind, s.span, value, s.function)
            accesses += self.around([acc], []) if kind == READ else self.around([], [acc])
        return sequence([*accesses, s])

    def barrier(self, s: core.Sync) -> list[core.Stmt]:
        """After a barrier its block's accesses are ordered: lower the flags of the memory its
        fences name (a grid barrier orders every block: all flags go to 0)."""
        out: list[core.Stmt] = []
        for a in sorted(self.checked):
            is_global = a in self.global_
            if ("global" if is_global else "local") not in s.fences and not s.grid:
                continue
            for kind in self.kinds(a):
                f = flag(a, kind)
                lowered: Term = IntLit(0)
                if is_global and self.multi_block and not s.grid:
                    neg = Binary(BinOp.SUB, IntLit(0), Var(f))
                    lowered = Conditional(Binary(BinOp.GT, Var(f), IntLit(0)), neg, Var(f))
                out.append(core.Assign(f, (), lowered, s.span))
        return out


def _body_terms(s: core.Stmt) -> tuple[Term, ...]:
    from .grid import _stmt_terms

    return tuple(_stmt_terms(s))


def sequence(stmts: list[core.Stmt]) -> core.Stmt:
    flat: list[core.Stmt] = []
    for s in stmts:
        flat.extend(s.stmts if isinstance(s, core.Seq) else (s,))
    return flat[0] if len(flat) == 1 else core.Seq(tuple(flat))
