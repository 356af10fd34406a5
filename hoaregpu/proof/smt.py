"""The checker's own translation of proof formulas to pySMT (not the VC generator's).

An entailment `H → G` becomes a formula that is unsatisfiable iff the entailment is
valid (the translation is sound: unsat implies validity; see below). Semantics as in
the paper (§3.1): a shared variable of dimension n is an n-ary integer function, a local
one (and a mask variable) takes the thread as one more argument, `\\old(x)` is a
variable of its own, `ntid` is N (a literal when the thread count is fixed, else a
constant with N >= 1). Conditions are integers, non-zero is true; `/` and `%` are C's.

Quantifiers over functions (`\\forall x'; φ`, H-ASSIGN's ∀x') are eliminated:
- where the entailment's validity quantifies them universally (positive, not under an
  existential-like integer quantifier), by an eigenvariable: a fresh function constant;
- in a hypothesis (negative), by instantiating with the eigenvariable of a ∀ of the same
  name in the goal (instantiating a hypothesis is always sound); without one the
  entailment is not translated (an error, reported as undecided).
`assign(x', m, x, ē, e)` is Definition 3.5 literally where it must be proved, and in
hypotheses (where its existentials may be Skolemized) the equivalent update form that
solvers handle well: x'(n̄) = ite(W(n̄), e@w(n̄), x(n̄)) with fresh W, w.
"""

from __future__ import annotations

from collections.abc import Callable

from pysmt.environment import Environment
from pysmt.fnode import FNode
from pysmt.typing import BOOL, INT, FunctionType, PySMTType

from ..terms import AggKind, BinOp, UnOp
from .formula import (
    Agg,
    AllNone,
    AssignP,
    At,
    Bin,
    Cond,
    F,
    FnForall,
    Name,
    Ntid,
    Num,
    Old,
    Quant,
    Tid,
    Un,
    conjuncts,
    implies,
)
from .formula_ops import base_var, is_primed
from .kernel import KernelInfo
from .onepoint import one_point
from .smt_aggregates import Aggregates, OpenBody
from .smt_assign import assign_formula

MAX_EXPANSION = 64


class Untranslatable(Exception):
    """The formula is outside what the translation accepts (a message for the user)."""


class Translator:
    def __init__(
        self, kernel: KernelInfo, mask_vars: set[str], threads: int | None, env: Environment
    ) -> None:
        self.kernel = kernel
        self.mask_vars = mask_vars
        self.threads = threads
        self.env = env
        self.mgr = env.formula_manager
        self.ntid = self.mgr.Int(threads) if threads is not None else self.mgr.Symbol("ntid", INT)
        self.skolems: dict[str, FNode] = {}
        self._seen: dict[str, int] = {}
        self._count = 0
        self._final = False
        self.aggs = Aggregates(env)

    # -- entry point
    def entailment(self, hyp: F, goal: F) -> FNode:
        """Satisfiable iff `hyp → goal` has a countermodel (for the eliminated ∀x', see above)."""
        f = implies(hyp, goal)
        self.skolems = {}
        self._seen = {}
        self._count = 0
        self._final = False
        self._bool(f, Env(), None, +1, False)  # first pass: find the goal's ∀x'
        self._count = 0
        self._final = True
        self._seen = {}
        self.aggs = Aggregates(self.env)
        body = self._bool(f, Env(), None, +1, False)
        m = self.mgr
        facts = [m.GE(self.ntid, m.Int(1))] if self.threads is None else []
        asserted = one_point(m.And([*facts, m.Not(body)]), self.env)
        # the aggregates' definitions and ground facts: true of the real aggregates (sound)
        try:
            facts = self.aggs.facts(asserted)
        except OpenBody as e:
            raise Untranslatable(str(e)) from None
        return m.And([*facts, asserted])

    def wellformed(self, f: F) -> None:
        """Raise Untranslatable if `f` reads an unknown variable, a local without a thread, ..."""
        self.skolems, self._seen, self._count, self._final = {}, {}, 0, False
        self.aggs = Aggregates(self.env)
        self._bool(f, Env(), None, +1, False)

    # -- symbols
    def _fresh(self, base: str, typ: PySMTType) -> FNode:
        self._count += 1
        return self.mgr.Symbol(f"{base}!{self._count}", typ)

    def _type(self, name: str) -> PySMTType:
        v = self.kernel.variables.get(base_var(name))
        if v is None:
            raise Untranslatable(f"unknown variable '{name}'")
        arity = v.dim + (1 if v.local else 0)
        return FunctionType(INT, [INT] * arity) if arity else INT

    def _symbol(self, name: str, fn: dict[str, FNode]) -> FNode:
        if name in fn:
            return fn[name]
        if name in self.kernel.variables or (is_primed(name) and base_var(name) in self.kernel.variables):
            return self.mgr.Symbol(name, self._type(name))
        if name in self.mask_vars:
            return self.mgr.Symbol(name, FunctionType(INT, [INT]))
        raise Untranslatable(f"unknown variable '{name}' (not a program, primed or mask variable)")

    # -- coercions
    def _int(self, v: FNode) -> FNode:
        return self.mgr.Ite(v, self.mgr.Int(1), self.mgr.Int(0)) if v.get_type() is BOOL else v

    def _bool_of(self, v: FNode) -> FNode:
        return self.mgr.Not(self.mgr.Equals(v, self.mgr.Int(0))) if v.get_type() is INT else v

    def _bool(self, f: F, env: Env, thread: FNode | None, pol: int, weak: bool) -> FNode:
        return self._bool_of(self._val(f, env, thread, pol, weak))

    def _iv(self, f: F, env: Env, thread: FNode | None) -> FNode:
        """An integer-valued subterm (polarity no longer matters inside terms)."""
        return self._int(self._val(f, env, thread, 0, True))

    # -- threads
    @property
    def expands_threads(self) -> bool:
        """Quantifiers over threads are written out (a fixed count up to MAX_EXPANSION)."""
        return self.threads is not None and self.threads <= MAX_EXPANSION

    def in_range(self, i: FNode) -> FNode:
        m = self.mgr
        return m.And(m.LE(m.Int(0), i), m.LT(i, self.ntid))

    def _threads(self, body: Callable[[FNode], FNode], forall: bool) -> FNode:
        """∀i ∈ T. body(i) / ∃i ∈ T. body(i), expanded when N is a small literal."""
        m = self.mgr
        if self.threads is not None and self.expands_threads:
            parts = [body(m.Int(k)) for k in range(self.threads)]
            return m.And(parts) if forall else m.Or(parts)
        i = self._fresh("i", INT)
        if forall:
            return m.ForAll([i], m.Implies(self.in_range(i), body(i)))
        return m.Exists([i], m.And(self.in_range(i), body(i)))

    # -- the translation
    def _val(self, f: F, env: Env, thread: FNode | None, pol: int, weak: bool) -> FNode:
        m = self.mgr
        if isinstance(f, Num):
            return m.Int(f.value)
        if isinstance(f, Tid):
            if thread is None:
                raise Untranslatable("'tid' read without a thread: write it under '@', \\all or \\none")
            return thread
        if isinstance(f, Ntid):
            return self.ntid
        if isinstance(f, Name):
            return self._name(f, env, thread, old=False)
        if isinstance(f, Old):
            return self._old(f.term, env, thread)
        if isinstance(f, Bin):
            return self._bin(f, env, thread, pol, weak)
        if isinstance(f, Un):
            if f.op is UnOp.NOT:
                return m.Not(self._bool(f.operand, env, thread, -pol, weak))
            return m.Minus(m.Int(0), self._iv(f.operand, env, thread))
        if isinstance(f, Cond):
            c = self._bool(f.cond, env, thread, 0, True)
            a = self._val(f.then, env, thread, pol, weak)
            b = self._val(f.orelse, env, thread, pol, weak)
            if a.get_type() is BOOL and b.get_type() is BOOL:
                return m.Ite(c, a, b)
            return m.Ite(c, self._int(a), self._int(b))
        if isinstance(f, At):
            where = self._iv(f.thread, env, thread)
            return self._val(f.term, env, where, pol, weak)
        if isinstance(f, AllNone):
            w = weak or pol <= 0

            def holds(i: FNode) -> FNode:
                v = self._bool(f.term, env, i, pol if f.all else -pol, w)
                return v if f.all else m.Not(v)

            return self._threads(holds, forall=True)
        if isinstance(f, Quant):
            return self._quant(f, env, thread, pol, weak)
        if isinstance(f, FnForall):
            return self._fn_forall(f, env, thread, pol, weak)
        if isinstance(f, AssignP):
            return assign_formula(self, f, env, pol, weak)
        if isinstance(f, Agg):
            return self._aggregate(f, env, thread)
        raise AssertionError(f"unexpected formula {f!r}")

    def _name(self, f: Name, env: Env, thread: FNode | None, old: bool) -> FNode:
        m = self.mgr
        if f.name in env.ints and not f.indices:
            return env.ints[f.name]
        args = [self._iv(i, env, thread) for i in f.indices]
        if old:
            if f.name not in self.kernel.variables:
                raise Untranslatable(f"'\\old' of '{f.name}', which is not a program variable")
            sym = m.Symbol(f"{f.name}.old", self._type(f.name))
        else:
            sym = self._symbol(f.name, env.fns)
        if base_var(f.name) in self.kernel.variables:
            local = self.kernel.is_local(f.name)
        else:
            local = f.name in self.mask_vars
        if local:
            if thread is None:
                raise Untranslatable(f"local '{f.name}' read without a thread: write '{f.name} @ t'")
            args = [thread, *args]
        ty = sym.symbol_type()
        want = len(ty.param_types) if ty.is_function_type() else 0
        if want != len(args):
            raise Untranslatable(
                f"'{f.name}' needs {want - (1 if local else 0)} indices, not {len(f.indices)}"
            )
        return m.Function(sym, args) if args else sym

    def _old(self, f: F, env: Env, thread: FNode | None) -> FNode:
        """`\\old(e)`: every program variable in e read in the initial state."""
        if isinstance(f, Name) and not (f.name in env.ints and not f.indices):
            if f.name not in self.kernel.variables:
                raise Untranslatable(f"'\\old' of '{f.name}', which is not a program variable")
            idx = tuple(Old(i) for i in f.indices)
            return self._name(Name(f.name, idx), env, thread, old=True)
        if isinstance(f, Num | Tid | Ntid | Name):
            return self._val(f, env, thread, 0, True)
        if isinstance(f, Old):
            return self._old(f.term, env, thread)
        if isinstance(f, Bin):
            return self._val(Bin(f.op, Old(f.left), Old(f.right)), env, thread, 0, True)
        if isinstance(f, Un):
            return self._val(Un(f.op, Old(f.operand)), env, thread, 0, True)
        if isinstance(f, Cond):
            return self._val(Cond(Old(f.cond), Old(f.then), Old(f.orelse)), env, thread, 0, True)
        if isinstance(f, At):
            return self._old(f.term, env, self._iv(Old(f.thread), env, thread))
        if isinstance(f, Agg):  # k is bound: `\old(k)` is k (see the Name case)
            return self._aggregate(Agg(f.kind, Old(f.low), Old(f.high), f.name, Old(f.body)), env, thread)
        raise Untranslatable("only program expressions may stand under '\\old'")

    def _bin(self, f: Bin, env: Env, thread: FNode | None, pol: int, weak: bool) -> FNode:
        m = self.mgr
        op = f.op
        if op is BinOp.AND:
            return m.And(
                self._bool(f.left, env, thread, pol, weak), self._bool(f.right, env, thread, pol, weak)
            )
        if op is BinOp.OR:
            return m.Or(
                self._bool(f.left, env, thread, pol, weak), self._bool(f.right, env, thread, pol, weak)
            )
        if op is BinOp.IMPLIES:
            a = self._bool(f.left, env, thread, -pol, weak)
            return m.Implies(a, self._bool(f.right, env, thread, pol, weak))
        if op is BinOp.IFF:
            return m.Iff(self._bool(f.left, env, thread, 0, True), self._bool(f.right, env, thread, 0, True))
        if op in (BinOp.SHL, BinOp.SHR):
            if not isinstance(f.right, Num):
                raise Untranslatable(f"the shift amount of '{op.value}' must be a constant")
            x = self._iv(f.left, env, thread)
            factor = m.Int(2**f.right.value)
            return m.Times(x, factor) if op is BinOp.SHL else m.Div(x, factor)
        a = self._iv(f.left, env, thread)
        b = self._iv(f.right, env, thread)
        arith: dict[BinOp, Callable[[FNode, FNode], FNode]] = {
            BinOp.ADD: m.Plus,
            BinOp.SUB: m.Minus,
            BinOp.MUL: m.Times,
            BinOp.DIV: self._cdiv,
            BinOp.MOD: lambda x, y: m.Minus(x, m.Times(y, self._cdiv(x, y))),
            BinOp.LT: m.LT,
            BinOp.LE: m.LE,
            BinOp.GT: m.GT,
            BinOp.GE: m.GE,
            BinOp.EQ: m.Equals,
            BinOp.NE: lambda x, y: m.Not(m.Equals(x, y)),
        }
        if op not in arith:  # `& | ^`: approximated by the VC generator, which proofs do not trust
            raise Untranslatable(f"operator '{op.value}' is not supported in proofs")
        return arith[op](a, b)

    def _aggregate(self, f: Agg, env: Env, thread: FNode | None) -> FNode:
        """Bounds and body at the current thread, `k` bound in the body (smt_aggregates.py)."""
        m = self.mgr
        low, high = self._iv(f.low, env, thread), self._iv(f.high, env, thread)

        def body(k: FNode) -> FNode:
            v = self._val(f.body, env.bind({f.name: k}), thread, 0, True)
            if f.kind is AggKind.NUMOF:  # counts the k where the body is non-zero
                return m.Ite(self._bool_of(v), m.Int(1), m.Int(0))
            return self._int(v)

        return self.aggs.term(f.kind, low, high, f.name, body)

    def _cdiv(self, a: FNode, b: FNode) -> FNode:
        """C division (toward zero) from SMT-LIB's div."""
        m = self.mgr
        zero = m.Int(0)
        return m.Ite(m.GE(a, zero), m.Div(a, b), m.Minus(zero, m.Div(m.Minus(zero, a), b)))

    def _quant(self, f: Quant, env: Env, thread: FNode | None, pol: int, weak: bool) -> FNode:
        m = self.mgr
        w = weak or pol == 0 or (f.forall and pol < 0) or (not f.forall and pol > 0)
        expanded = self._expand(f, env, thread, pol, w)
        if expanded is not None:
            return expanded
        fresh = {n: self._fresh(n, INT) for n in f.names}
        body = self._bool(f.body, env.bind(fresh), thread, pol, w)
        return (m.ForAll if f.forall else m.Exists)(list(fresh.values()), body)

    def _expand(self, f: Quant, env: Env, thread: FNode | None, pol: int, weak: bool) -> FNode | None:
        """`\\forall int t; 0 <= t && t < ntid ... ==> φ` (or `\\exists ... && φ`) with N fixed:
        the conjunction (disjunction) of its N instances."""
        if self.threads is None or self.threads > MAX_EXPANSION or len(f.names) != 1:
            return None
        (t,) = f.names
        body = f.body
        if f.forall and not (isinstance(body, Bin) and body.op is BinOp.IMPLIES):
            return None
        guard = body.left if f.forall and isinstance(body, Bin) else body
        parts = conjuncts(guard)
        low = Bin(BinOp.LE, Num(0), Name(t)) in parts
        high = Bin(BinOp.LT, Name(t), Ntid()) in parts
        if not (low and high):
            return None
        m = self.mgr
        inst = [self._bool(body, env.bind({t: m.Int(k)}), thread, pol, weak) for k in range(self.threads)]
        return m.And(inst) if f.forall else m.Or(inst)

    def _fn_forall(self, f: FnForall, env: Env, thread: FNode | None, pol: int, weak: bool) -> FNode:
        if not (is_primed(f.name) and base_var(f.name) in self.kernel.variables):
            raise Untranslatable(f"'\\forall {f.name}' must bind a primed program variable such as x'1")
        typ = self._type(f.name)
        if pol > 0 and not weak:
            # The k-th ∀x' of the goal is x'!sk<k> in both passes.
            k = self._seen[f.name] = self._seen.get(f.name, 0) + 1
            sk = self.mgr.Symbol(f"{f.name}!sk{k}", typ)
            self.skolems.setdefault(f.name, sk)
        elif pol < 0:
            if self._final and f.name not in self.skolems:
                raise Untranslatable(
                    f"cannot instantiate '\\forall {f.name}' in a hypothesis: "
                    f"the goal has no '\\forall {f.name}' to match"
                )
            sk = self.mgr.Symbol(f"{f.name}!sk1", typ)
        else:
            raise Untranslatable(f"'\\forall {f.name}' stands where it can be neither assumed nor proved")
        return self._bool(f.body, env.bind_fn({f.name: sk}), thread, pol, weak)


class Env:
    """Bound integer variables and bound function variables (eigenvariables / instances)."""

    def __init__(self, ints: dict[str, FNode] | None = None, fns: dict[str, FNode] | None = None) -> None:
        self.ints = ints or {}
        self.fns = fns or {}

    def bind(self, ints: dict[str, FNode]) -> Env:
        return Env({**self.ints, **ints}, self.fns)

    def bind_fn(self, fns: dict[str, FNode]) -> Env:
        return Env(self.ints, {**self.fns, **fns})
