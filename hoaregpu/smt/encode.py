"""Kernel terms and spec formulas as pySMT formulas (the paper's assertion language, §3.1).

A shared variable of dimension n is an n-ary function symbol, a local one an (n+1)-ary
function whose first argument is the thread (a scalar shared variable is a constant).
`ntid` is the constant N. Program expressions are integers; conditions mean "non-zero".
Masks (Definition 3.1) are conjunctions of fresh Boolean functions of the thread, never
program variables. Every bound variable gets a fresh name (pySMT's substitution is not
capture-avoiding).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from math import prod

from pysmt.environment import Environment
from pysmt.fnode import FNode
from pysmt.typing import BOOL, INT, FunctionType, PySMTType

from .. import core
from ..errors import Span, SpecError
from ..floats import FLOAT_BINOPS, FLOAT_UNOPS
from ..grid import is_multi_block, live_coords, with_contract
from ..launch import ALL_COORDS, THREAD_X, Coord, Launch
from ..terms import (
    AggKind,
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
from . import bitops, floats, sums
from .expand import MAX_EXPANSION
from .grid_terms import GridTerms
from .smtlib import RESERVED_NAMES


@dataclass(frozen=True)
class Mask:
    """`m`: the conjunction of literals z(i) / !z(i) over fresh thread predicates z; () is T."""

    literals: tuple[tuple[FNode, bool], ...] = ()

    def conj(self, z: FNode, positive: bool) -> Mask:
        """`m && z` (positive) or `m && !z` (H-IF, H-WHILE)."""
        return Mask((*self.literals, (z, positive)))

    @property
    def is_all(self) -> bool:
        return not self.literals


class Encoder(GridTerms):
    """Builds FNodes for one kernel in one pySMT environment."""

    def __init__(self, kernel: core.Kernel, env: Environment, threads: int | Launch | None = None) -> None:
        self.kernel = kernel
        self.env = env
        self.mgr = env.formula_manager
        self._counter = 0
        given = threads if isinstance(threads, Launch) else Launch.of_threads(threads)
        self.launch = with_contract(kernel, given)
        # A fixed size is a literal, so that `k % blockDim.x` stays linear.
        self.live = live_coords(kernel)
        self.sizes = {c: self._size_symbol(c) for c in ALL_COORDS}
        self.ntid = self.sizes[THREAD_X]
        self.multi_block = is_multi_block(self.live)
        live_sizes = [self.sizes[c] for c in self.live]
        # N: the threads of the model (the paper's N when there is one block, one dimension)
        if all(v.is_constant() for v in live_sizes):  # a literal: fixed thread quantifiers expand
            self.nthreads = self.mgr.Int(prod(v.constant_value() for v in live_sizes))
        else:
            self.nthreads = live_sizes[0] if len(live_sizes) == 1 else self.mgr.Times(live_sizes)
        self._base: dict[str, FNode] = {}  # the initial state (what `\\old` reads)
        self._versions: dict[FNode, str] = {}  # x' symbols made by H-ASSIGN / loop havoc
        # The current state of forward VC generation (`vc.wp`): variable -> its newest
        # version, where it differs from the initial one; every change is journaled so
        # that a loop's continuation can return to the loop head's state (`undo_to`).
        self._current: dict[str, FNode] = {}
        self._journal: list[tuple[str, FNode | None]] = []
        self.pred_conds: dict[FNode, Term] = {}  # z of H-IF / H-WHILE -> its e (`writers.pinned`)
        for d in kernel.decls:
            # A C name may be an SMT-LIB theory symbol (`abs`, `div`, `store`, ...); `.v`
            # cannot occur in a C name or a lowering rename (`x.1`), so it never clashes.
            smt_name = f"{d.name}.v" if d.name in RESERVED_NAMES else d.name
            self._base[d.name] = self.mgr.Symbol(smt_name, self.var_type(d))

    # -- barriers (the grid's coordinates: smt/grid_terms.py) ------------------------

    def barrier_uniform(self, mask: Mask) -> FNode:
        """The strict H-SYNC condition (§7) per block: in each block all threads or none are in m."""
        if not self.multi_block:
            return self.mgr.Or(self.all_active(mask), self.none_active(mask))
        m = self.mgr
        i, j = self.fresh("i", INT), self.fresh("j", INT)
        partner = m.Implies(m.And(self.in_range(j), self.same_block(i, j)), self.mask_at(mask, j))
        return m.ForAll([i], m.Implies(self.active(mask, i), m.ForAll([j], partner)))

    def grid_uniform(self, mask: Mask) -> FNode:
        """The strict H-SYNC condition over the whole grid (a grid barrier): all threads of
        every block are in m, or none is."""
        return self.mgr.Or(self.all_active(mask), self.none_active(mask))

    # -- symbols -----------------------------------------------------------------

    @staticmethod
    def var_type(d: core.VarDecl) -> PySMTType:
        arity = d.dim + (1 if d.kind is core.VarKind.LOCAL else 0)
        return FunctionType(INT, [INT] * arity) if arity else INT

    def symbol(self, name: str) -> FNode:
        """The variable's symbol in the current state (the initial one until VC generation
        gives it a new version)."""
        return self._current.get(name) or self._base[name]

    def initial_symbol(self, name: str) -> FNode:
        """The variable in the kernel's initial state (what `\\old(x)` reads)."""
        return self._base[name]

    def set_version(self, name: str, sym: FNode) -> None:
        """From now on `name` is `sym` (an x' of H-ASSIGN, a loop's or a call's havoc)."""
        self._journal.append((name, self._current.get(name)))
        self._current[name] = sym

    def mark(self) -> int:
        """The current state, to return to with `undo_to`."""
        return len(self._journal)

    def undo_to(self, mark: int) -> None:
        while len(self._journal) > mark:
            name, previous = self._journal.pop()
            if previous is None:
                del self._current[name]
            else:
                self._current[name] = previous

    def fresh(self, base: str, typ: PySMTType) -> FNode:
        # `!` never occurs in program names (C names, `x.1` renamings, `x.old`), so no clash.
        self._counter += 1
        return self.mgr.Symbol(f"{base}!{self._counter}", typ)

    def fresh_like(self, name: str) -> FNode:
        """x' of H-ASSIGN: a fresh variable of x's arity."""
        sym = self.fresh(name, self.var_type(self.kernel.decl(name)))
        self._versions[sym] = name
        return sym

    def version_owner(self) -> dict[FNode, tuple[str, bool]]:
        """Every symbol standing for a program variable: (variable, is it the initial state)."""
        owner = {sym: (name, True) for name, sym in self._base.items()}
        owner.update({sym: (name, False) for sym, name in self._versions.items()})
        return owner

    def fresh_thread_pred(self, hint: str = "z") -> FNode:
        """z of H-IF / H-WHILE, as a Boolean function of the thread."""
        return self.fresh(hint, FunctionType(BOOL, [INT]))

    def apply(self, f: FNode, args: list[FNode]) -> FNode:
        return self.mgr.Function(f, args) if args else f

    # -- threads and masks (Definition 3.5) ----------------------------------------

    def in_range(self, i: FNode) -> FNode:
        m = self.mgr
        return m.And(m.LE(m.Int(0), i), m.LT(i, self.nthreads))

    def mask_at(self, mask: Mask, i: FNode) -> FNode:
        """`i ∈ m`."""
        m = self.mgr
        lits = [m.Function(z, [i]) if pos else m.Not(m.Function(z, [i])) for z, pos in mask.literals]
        return m.And(lits) if lits else m.TRUE()

    def active(self, mask: Mask, i: FNode) -> FNode:
        """`0 <= i < N && i ∈ m`."""
        return self.mgr.And(self.in_range(i), self.mask_at(mask, i))

    def all_active(self, mask: Mask) -> FNode:
        """all(m)."""
        i = self.fresh("i", INT)
        return self.mgr.ForAll([i], self.mgr.Implies(self.in_range(i), self.mask_at(mask, i)))

    def none_active(self, mask: Mask, cond: Term | None = None) -> FNode:
        """none(m) or none(m && cond)."""
        i = self.fresh("i", INT)
        m = self.mgr
        body = self.mask_at(mask, i)
        if cond is not None:
            body = m.And(body, self.cond_at(cond, i))
        return m.ForAll([i], m.Implies(self.in_range(i), m.Not(body)))

    def define_thread_pred(self, z: FNode, cond: Term) -> FNode:
        """`e = z` of H-IF / H-WHILE: ∀i ∈ T. z(i) ⟺ e@i ≠ 0.

        (Stating it for every i, not only threads, made cvc5 time out on barrier VCs it
        refutes in 30 ms in this form.)

        Over a fixed count of threads too many to expand (`expand.MAX_EXPANSION`), it is
        `∀i. z(i) = ite(i ∈ T, e@i ≠ 0, z₀(i))` instead, z₀ fresh: the same constraint (z₀ is
        z outside T), but an equation defining z, which z3 turns into z's model at once; in the
        guarded form it built z's model point by point and found no counterexample in minutes
        to races over 1024 x 1024 work-items behind a branch on `get_local_id(0)`."""
        self.pred_conds[z] = cond
        i = self.fresh("i", INT)
        m = self.mgr
        value = self.cond_at(cond, i)
        if self.nthreads.is_constant() and self.nthreads.constant_value() > MAX_EXPANSION:
            outside = self.fresh(f"{z.symbol_name().split('!')[0]}.outside", FunctionType(BOOL, [INT]))
            defined = m.Ite(self.in_range(i), value, m.Function(outside, [i]))
            return m.ForAll([i], m.Iff(m.Function(z, [i]), defined))
        return m.ForAll([i], m.Implies(self.in_range(i), m.Iff(m.Function(z, [i]), value)))

    # -- program expressions at a thread (Definition 3.3) ---------------------------

    def at(self, e: Term, thread: FNode) -> FNode:
        """e@t as an integer term."""
        return self._int(self._value(e, thread, {}, old=False))

    def cond_at(self, e: Term, thread: FNode) -> FNode:
        """e@t ≠ 0."""
        return self._bool(self._value(e, thread, {}, old=False))

    # -- spec formulas -------------------------------------------------------------

    def is_per_thread(self, t: Term, bound: frozenset[str] = frozenset()) -> bool:
        """Mentions a local variable or tid outside `@` (spec language §3, thread reading).

        Iterative: a sum written out over 1,024 threads is a chain 1,000 deep."""
        from ..term_walk import children

        stack: list[tuple[Term, frozenset[str]]] = [(t, bound)]
        while stack:
            t, bound = stack.pop()
            if isinstance(t, ThreadId | BlockId):
                return True
            if isinstance(t, Var):
                if t.name not in bound and self.kernel.decl(t.name).kind is core.VarKind.LOCAL:
                    return True
                stack.extend((i, bound) for i in t.indices)
            elif isinstance(t, At):
                stack.append((t.thread, bound))  # the term is read at thread t, not here
                if t.block is not None:
                    stack.append((t.block, bound))
            elif isinstance(t, Quant):
                stack.append((t.body, bound | frozenset(t.names)))
            elif isinstance(t, Aggregate):
                stack.extend([(t.low, bound), (t.high, bound), (t.body, bound | {t.name})])
            elif not isinstance(t, ThreadPred):  # `\all`/`\none` quantify the thread away
                stack.extend((c, bound) for c in children(t))
        return False

    def formula(self, f: Term, mask: Mask) -> FNode:
        """A clause read at the threads of `mask`: ∀t ∈ m. φ[t/tid] when per-thread, else φ."""
        if not self.is_per_thread(f):
            return self._bool(self._value(f, None, {}, old=False))
        t = self.fresh("tid", INT)
        body = self._bool(self._value(f, t, {}, old=False))
        return self.mgr.ForAll([t], self.mgr.Implies(self.active(mask, t), body))

    def formula_active(self, f: Term, mask: Mask) -> FNode:
        """An `assert`/`assume`/loop-invariant clause under `mask`: it speaks of the active
        threads only.

        Per thread it is `formula` (∀t ∈ m. φ[t/tid], vacuous when m is empty). A global φ
        is `(∃t ∈ m) → φ`: a statement no thread executes says nothing, as in the
        interpreters, which skip it. Assuming a bare global φ under an empty mask (e.g.
        `assume false;` in `if (tid >= ntid)`) would make every later VC hold vacuously."""
        body = self.formula(f, mask)
        if mask.is_all or self.is_per_thread(f):
            return body  # T always has a thread: N >= 1 is an entry fact
        return self.mgr.Implies(self.mgr.Not(self.none_active(mask)), body)

    # -- the translation ---------------------------------------------------------

    def _int(self, v: FNode) -> FNode:
        if v.get_type() is BOOL:
            return self.mgr.Ite(v, self.mgr.Int(1), self.mgr.Int(0))
        return v

    def _bool(self, v: FNode) -> FNode:
        if v.get_type() is INT:
            return self.mgr.Not(self.mgr.Equals(v, self.mgr.Int(0)))
        return v

    def _value(self, t: Term, thread: FNode | None, bound: Mapping[str, FNode], old: bool) -> FNode:
        m = self.mgr
        if isinstance(t, IntLit):
            return m.Int(t.value)
        if isinstance(t, ThreadId | BlockId):
            where = self._need_thread(thread, t.span, builtin_name(t))
            return self.coord_at(Coord(isinstance(t, BlockId), t.axis), where)
        if isinstance(t, ThreadCount | BlockCount):
            return self.sizes[Coord(isinstance(t, BlockCount), t.axis)]
        if isinstance(t, Var):
            if t.name in bound and not t.indices:
                return bound[t.name]
            d = self.kernel.decl(t.name)
            sym = self._base[t.name] if old else self.symbol(t.name)
            args = [self._int(self._value(i, thread, bound, old)) for i in t.indices]
            if d.kind is core.VarKind.LOCAL:
                args = [self._need_thread(thread, t.span, d.display_name), *args]
            return self.apply(sym, args)
        if isinstance(t, Binary):
            return self._binary(t, thread, bound, old)
        if isinstance(t, Unary):
            v = self._value(t.operand, thread, bound, old)
            if t.op in FLOAT_UNOPS:  # hoaregpu.floats: uninterpreted
                return floats.unary(m, t.op, self._int(v))
            if t.op is UnOp.NOT:
                return m.Not(self._bool(v))
            return m.Minus(m.Int(0), self._int(v))
        if isinstance(t, Conditional):
            c = self._bool(self._value(t.cond, thread, bound, old))
            a = self._value(t.then, thread, bound, old)
            b = self._value(t.orelse, thread, bound, old)
            if a.get_type() is BOOL and b.get_type() is BOOL:
                return m.Ite(c, a, b)
            return m.Ite(c, self._int(a), self._int(b))
        if isinstance(t, Quant):
            fresh = {n: self.fresh(n, INT) for n in t.names}
            body = self._bool(self._value(t.body, thread, {**bound, **fresh}, old))
            q = m.ForAll if t.kind is QuantKind.FORALL else m.Exists
            return q(list(fresh.values()), body)
        if isinstance(t, Aggregate):  # hoaregpu.smt.sums: a marker, closed once the VC is built
            k = self.fresh(t.name, INT)
            low = self._int(self._value(t.low, thread, bound, old))
            high = self._int(self._value(t.high, thread, bound, old))
            body = self._value(t.body, thread, {**bound, t.name: k}, old)
            if t.kind is AggKind.NUMOF:  # counts where the condition is non-zero
                body = self._bool(body)
            return sums.marker(m, t.kind, low, high, k, self._int(body))
        if isinstance(t, At):
            linear = self._int(self._value(t.thread, thread, bound, old))
            if t.block is not None:
                block = self._int(self._value(t.block, thread, bound, old))
                where, inside = self.grid_thread(block, linear)
            else:
                where, inside = self.same_block_thread(linear, thread, t.span)
            value = self._value(t.term, where, bound, old)
            if inside is None:
                return value
            # outside its block `@ t` names no thread: a value nothing is known of
            nowhere = self.fresh("at.outside", FunctionType(value.get_type(), [INT]))
            return m.Ite(inside, value, m.Function(nowhere, [linear]))
        if isinstance(t, Old):
            return self._value(t.term, thread, bound, old=True)
        if isinstance(t, ThreadPred):
            i = self.fresh("i", INT)
            holds = self._bool(self._value(t.term, i, bound, old))
            body = holds if t.kind is ThreadPredKind.ALL else m.Not(holds)
            return m.ForAll([i], m.Implies(self.in_range(i), body))
        raise AssertionError(f"unexpected term {t!r}")

    def _need_thread(self, thread: FNode | None, span: Span | None, what: str) -> FNode:
        if thread is None:
            where = span or self.kernel.span or Span("<kernel>", 1, 1)
            raise SpecError(f"'{what}' needs a thread here; write it as '{what} @ t'", where)
        return thread

    def _binary(self, t: Binary, thread: FNode | None, bound: Mapping[str, FNode], old: bool) -> FNode:
        m = self.mgr
        op = t.op
        if op in FLOAT_BINOPS:  # hoaregpu.floats: uninterpreted
            a = self._int(self._value(t.left, thread, bound, old))
            return floats.binary(m, op, a, self._int(self._value(t.right, thread, bound, old)))
        if op in _BIT_OPS:  # hoaregpu.smt.bitops: exact where it can be, approximated elsewhere
            a = self._value(t.left, thread, bound, old)
            b = self._value(t.right, thread, bound, old)
            if op in (BinOp.SHL, BinOp.SHR):
                return bitops.shift(m, t, self._int(a), self._int(b))
            return bitops.bitwise(m, t, a, b)
        # Logical operators take conditions (non-zero is true), the others integers.
        coerce = self._bool if op.is_logical else self._int
        if op in _CHAINS:  # `a + b + ... + z` walked down its left spine without recursion
            build_op: Callable[[FNode, FNode], FNode] = getattr(m, _MANAGER_OP[op])
            first, *rights = left_spine(t)
            acc = coerce(self._value(first, thread, bound, old))
            for r in rights:  # the same nested binary nodes as before: the same SMT text
                acc = build_op(acc, coerce(self._value(r, thread, bound, old)))
            return acc
        a = coerce(self._value(t.left, thread, bound, old))
        b = coerce(self._value(t.right, thread, bound, old))
        if op is BinOp.DIV:
            return self.c_div(a, b)
        if op is BinOp.MOD:  # C: a == (a / b) * b + a % b
            return m.Minus(a, m.Times(b, self.c_div(a, b)))
        if op is BinOp.NE:
            return m.Not(m.Equals(a, b))
        build: Callable[[FNode, FNode], FNode] = getattr(m, _MANAGER_OP[op])
        return build(a, b)

    def c_div(self, a: FNode, b: FNode) -> FNode:
        """C division, truncating toward zero, from SMT-LIB's div (which truncates like C when a >= 0)."""
        m = self.mgr
        zero = m.Int(0)
        return m.Ite(m.GE(a, zero), m.Div(a, b), m.Minus(zero, m.Div(m.Minus(zero, a), b)))


_BIT_OPS = (BinOp.SHL, BinOp.SHR, BinOp.BAND, BinOp.BOR, BinOp.BXOR)

# Operators whose chains the parser nests to the left: `a + b + ... + z` is a chain as deep
# as it is long (1,023 for a sum written out over 1,024 threads).
_CHAINS = (BinOp.ADD, BinOp.SUB, BinOp.MUL, BinOp.AND, BinOp.OR)


def left_spine(t: Binary) -> list[Term]:
    """`[x0, x1, ..., xn]` for `((x0 op x1) op ...) op xn`, found without recursion."""
    rights: list[Term] = []
    x: Term = t
    while isinstance(x, Binary) and x.op is t.op:
        rights.append(x.right)
        x = x.left
    return [x, *reversed(rights)]


# pySMT formula-manager methods for the operators that map one to one.
_MANAGER_OP = {
    BinOp.AND: "And",
    BinOp.OR: "Or",
    BinOp.IMPLIES: "Implies",
    BinOp.IFF: "Iff",
    BinOp.ADD: "Plus",
    BinOp.SUB: "Minus",
    BinOp.MUL: "Times",
    BinOp.LT: "LT",
    BinOp.LE: "LE",
    BinOp.GT: "GT",
    BinOp.GE: "GE",
    BinOp.EQ: "Equals",
}
