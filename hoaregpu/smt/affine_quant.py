"""Two equivalences on integer quantifiers that give the solver the instances it cannot find.

A quantifier whose variable reaches the arrays only through one affine index `a·x + r`
(a a constant, r free of the quantifier's variables) is a trap for e-matching: its pattern
`c(a·x + r)` matches no ground read `c(j)`, so the solver would have to guess
`x = (j - r) / a`. The paper's own invariant for vector addition (§3.3.1,
`\\exists int l; k == l * 4 + tid && \\forall int m; 0 <= m < l ==> c[m * 4 + tid] == ...`)
needs two such guesses, `l + 1` and `j / 4`; neither z3 nor cvc5 made them in 10 s.

- **One point with a coefficient.** `∃x. (a·x + r = s) ∧ A` is `a | (s - r) ∧ A[(s - r) div a / x]`,
  and `∀x. (a·x + r = s) ∧ A ⇒ B` is `a | (s - r) ⇒ (A ⇒ B)[(s - r) div a / x]` (s, r free of
  x): the equation has the one solution `(s - r) div a` when `a` divides `s - r`, none
  otherwise. Only for |a| > 1: with a = ±1 solvers eliminate x themselves.
- **The index as the variable.** `Qx. B` is `Qy. a | (y - r) ⇒/∧ B'`, where B' is B with the
  index `a·x + r` replaced by y and x by `(y - r) div a` elsewhere: x ↦ a·x + r is a bijection
  from the integers onto the y with `a | (y - r)`, and under that guard `a·((y - r) div a) + r = y`.
  Applied when every application argument in which x occurs is that one index, and it is not
  x itself (then there is nothing to gain): the pattern becomes `c(y)`.

Both are equivalences over the integers (SMT-LIB's `div` is exact on multiples), so a
countermodel of the rewritten VC is one of the VC. They are applied where they help, to the
quantifiers the solver instantiates (`AffineQuantifiers`). Quantifiers of thread numbers
are expanded before, or left alone by the rule's conditions: a thread's own variable `k(t)`
is an argument `t`, not an affine index of it.
`tests/smt/test_affine_quant.py` has a solver prove each rewrite equivalent to its input.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from pysmt.environment import Environment
from pysmt.fnode import FNode
from pysmt.formula import FormulaManager
from pysmt.typing import INT

from ..vc.goals import Hyp
from ..vc.slicing import conjuncts

Affine = tuple[int, FNode]  # a·x + r: (a, r)


class AffineQuantifiers:
    """The rewrites, applied to the quantifiers a solver instantiates: universals of what is
    asserted (a hypothesis), existentials of what is refuted (the goal). A quantifier the
    solver Skolemizes needs no instance, and a substitution there only nests terms."""

    def __init__(self, env: Environment) -> None:
        self.mgr = env.formula_manager
        self._memo: dict[tuple[FNode, int], FNode] = {}
        self._bound: dict[FNode, frozenset[FNode]] = {}  # the variables bound inside a body

    def asserted(self, f: FNode) -> FNode:
        """`f` rewritten, for a hypothesis: a formula the solver is given as true."""
        return self.walk(f, 1)

    def refuted(self, f: FNode) -> FNode:
        """`f` rewritten, for a goal or a whole VC: the solver is given its negation."""
        return self.walk(f, -1)

    def walk(self, f: FNode, pol: int) -> FNode:
        """`f` with its instantiated quantifiers rewritten; `pol` +1 where f is asserted, -1
        where its negation is (0: both, as under `<=>`, where nothing is rewritten)."""
        key = (f, pol)
        done = self._memo.get(key)
        if done is None:
            done = self._memo[key] = self._walk(f, pol)
        return done

    def _walk(self, f: FNode, pol: int) -> FNode:
        m = self.mgr
        if pol == 0 or not f.get_type().is_bool_type() or f.is_symbol() or f.is_constant():
            return f
        if f.is_and() or f.is_or():
            args = [self.walk(a, pol) for a in f.args()]
            if all(a is b for a, b in zip(args, f.args(), strict=True)):
                return f
            return m.And(args) if f.is_and() else m.Or(args)
        if f.is_not():
            inner = self.walk(f.arg(0), -pol)
            return f if inner is f.arg(0) else m.Not(inner)
        if f.is_implies():
            left, right = self.walk(f.arg(0), -pol), self.walk(f.arg(1), pol)
            return f if left is f.arg(0) and right is f.arg(1) else m.Implies(left, right)
        if f.is_quantifier():
            body = self.walk(f.arg(0), pol)
            universal = f.is_forall()
            qvars = list(f.quantifier_vars())
            if universal == (pol > 0):  # instantiated by the solver
                return self._quantifier(universal, qvars, body)
            return f if body is f.arg(0) else m.ForAll(qvars, body) if universal else m.Exists(qvars, body)
        return f  # an atom, `<=>` or a Boolean `ite`: left as it is

    def _quantifier(self, universal: bool, qvars: list[FNode], body: FNode) -> FNode:
        m = self.mgr
        inner: list[FNode] = []  # variables rewritten away or renamed, innermost first
        changed = True
        while changed:
            changed = False
            for x in qvars:
                if x.symbol_type() is not INT:
                    continue
                others = frozenset(v for v in [*qvars, *inner] if v is not x)  # bound here too
                done = self._one_point(universal, x, others, body)
                if done is not None:
                    qvars, body, changed = [v for v in qvars if v is not x], done, True
                    break
                renamed = self._index_change(universal, x, others, body)
                if renamed is not None:
                    y, body = renamed
                    qvars = [v for v in qvars if v is not x]
                    inner.append(y)
                    changed = True
                    break
        if inner:  # the renamed variables are bound innermost (their guards mention no other)
            body = m.ForAll(inner, body) if universal else m.Exists(inner, body)
        if not qvars:
            return body
        return m.ForAll(qvars, body) if universal else m.Exists(qvars, body)

    # -- the one-point rule -------------------------------------------------------------

    def _one_point(self, universal: bool, x: FNode, bound: frozenset[FNode], body: FNode) -> FNode | None:
        m = self.mgr
        if universal:
            if not body.is_implies():
                return None
            hyps, rest = conjuncts(body.arg(0)), body.arg(1)
        else:
            hyps, rest = conjuncts(body), None
        for n, c in enumerate(hyps):
            solved = self._solve(c, x, bound)
            if solved is None:
                continue
            a, r, s = solved
            if abs(a) < 2:
                return None  # the solvers' own elimination does it
            if self._captured(body, x, s, r):
                return None
            diff = m.Minus(s, r)
            w = m.Div(diff, m.Int(a))
            others = [h for k, h in enumerate(hyps) if k != n]
            guard = _divides(m, a, diff)
            if universal:
                assert rest is not None
                inner = m.Implies(m.And(others), rest) if others else rest
                return m.Implies(guard, inner.substitute({x: w}))
            return m.And([guard, *(h.substitute({x: w}) for h in others)])
        return None

    def _solve(self, c: FNode, x: FNode, bound: frozenset[FNode]) -> tuple[int, FNode, FNode] | None:
        """(a, r, s) when `c` is `a·x + r = s` (either side), s and r free of x and `bound`."""
        if not c.is_equals() or not c.arg(0).get_type().is_int_type():
            return None
        for lhs, rhs in ((c.arg(0), c.arg(1)), (c.arg(1), c.arg(0))):
            if _mentions(rhs, {x, *bound}):
                continue
            form = _affine(self.mgr, lhs, x)
            if form is not None and form[0] != 0 and not _mentions(form[1], bound):
                return form[0], form[1], rhs
        return None

    def _captured(self, body: FNode, x: FNode, *terms: FNode) -> bool:
        """Some quantifier inside `body` binds x, or a variable of `terms`. The witness would
        then be substituted under a binder that captures it, or the guard, placed above that
        binder, would read its variable as a free constant: `\\exists x; \\forall m; ...
        c[2 * x + m]` is not `\\exists y; 2 | (y - m) && ...` (adversarial review: a wrong
        kernel verified). The binders of a body are collected once (memoized)."""
        inner = self._bound.get(body)
        if inner is None:
            found: set[FNode] = set()
            seen: set[FNode] = set()
            stack = [body]
            while stack:
                g = stack.pop()
                if g in seen:
                    continue
                seen.add(g)
                if g.is_quantifier():
                    found.update(g.quantifier_vars())
                stack.extend(g.args())
            inner = self._bound[body] = frozenset(found)
        return bool(inner) and (x in inner or any(_mentions(t, inner) for t in terms))

    # -- the index as the variable ------------------------------------------------------

    def _index_change(
        self, universal: bool, x: FNode, bound: frozenset[FNode], body: FNode
    ) -> tuple[FNode, FNode] | None:
        index = _only_index(body, x)
        if index is None:
            return None
        form = _affine(self.mgr, index, x)
        if form is None or form[0] == 0 or _mentions(form[1], bound) or form == (1, self.mgr.Int(0)):
            return None
        if self._captured(body, x, form[1]):
            return None
        a, r = form
        m = self.mgr
        y = m.FreshSymbol(INT, template=f"{x.symbol_name()}.ix%d")
        diff = m.Minus(y, r)
        if a == 1:
            w = diff
        elif a == -1:
            w = m.Minus(r, y)
        else:
            w = m.Div(diff, m.Int(a))
        renamed = body.substitute({index: y}).substitute({x: w})
        if abs(a) == 1:
            return y, renamed
        guard = _divides(m, a, diff)
        return y, (m.Implies(guard, renamed) if universal else m.And(guard, renamed))


class AffineHypotheses:
    """The goals of one kernel's VCs, rewritten, each with the rewritten forms of the
    hypotheses it needs beside it. A hypothesis is printed once for all the VCs of its path
    (`smt.script`), as it is; its rewritten form is an equivalent fact added to a VC whose goal
    reads, outside quantifiers, an array the hypothesis reads (`c[j]` against `\\forall m;
    ... c[m * 4 + tid] ...`: the instance the solver misses). Added to every VC, it slowed
    the others: the preservation of the paper's invariant, which reads `c(4·m + tid)`
    already, went from 0.2 s to 3-15 s or a timeout, depending on z3's seed."""

    def __init__(
        self,
        env: Environment,
        hypotheses: Iterable[Hyp],
        encode: Callable[[FNode], FNode],
        on_path: Callable[[Hyp, Hyp | None], bool],
    ) -> None:
        self.mgr = env.formula_manager
        self.affine = AffineQuantifiers(env)
        self._on_path = on_path
        self._named: list[tuple[Hyp, frozenset[FNode], FNode]] = []
        for h in hypotheses:
            f = encode(h.formula)
            g = self.affine.asserted(f)
            if g is not f:
                self._named.append((h, _functions(f), g))

    def goal(self, hyps: Hyp | None, goal: FNode) -> FNode:
        """`goal` (encoded) rewritten, under the rewritten hypotheses of `hyps` it needs."""
        out = self.affine.refuted(goal)
        if not self._named:
            return out
        reads = _ground_reads(goal)
        facts = [g for h, fs, g in self._named if not fs.isdisjoint(reads) and self._on_path(h, hyps)]
        return self.mgr.Implies(self.mgr.And(facts), out) if facts else out


def _functions(f: FNode) -> frozenset[FNode]:
    return frozenset(s for s in f.get_free_variables() if s.symbol_type().is_function_type())


def _ground_reads(f: FNode) -> set[FNode]:
    """The functions applied in `f` outside its quantifiers."""
    out: set[FNode] = set()
    seen: set[FNode] = set()
    stack = [f]
    while stack:
        g = stack.pop()
        if g in seen or g.is_quantifier():
            continue
        seen.add(g)
        if g.is_function_application():
            out.add(g.function_name())
        stack.extend(g.args())
    return out


def _divides(m: FormulaManager, a: int, e: FNode) -> FNode:
    """`a | e` as `a·(e div a) = e` (SMT-LIB's div is exact on multiples)."""
    return m.Equals(m.Times(m.Int(a), m.Div(e, m.Int(a))), e)


def _sum(m: FormulaManager, terms: list[FNode]) -> FNode:
    kept = [t for t in terms if not (t.is_int_constant() and t.constant_value() == 0)]
    return m.Int(0) if not kept else kept[0] if len(kept) == 1 else m.Plus(kept)


def _scaled(m: FormulaManager, k: int, t: FNode) -> FNode:
    if k == 0 or (t.is_int_constant() and t.constant_value() == 0):
        return m.Int(0)
    return t if k == 1 else m.Times(m.Int(k), t)


def _mentions(f: FNode, xs: set[FNode] | frozenset[FNode]) -> bool:
    return bool(xs) and not f.get_free_variables().isdisjoint(xs)


def _affine(m: FormulaManager, t: FNode, x: FNode) -> Affine | None:
    """(a, r) when `t` is `a·x + r` with a a constant and r free of x; None otherwise."""
    if t is x:
        return 1, m.Int(0)
    if x not in t.get_free_variables():
        return 0, t
    if t.is_plus() or t.is_minus():
        parts = [_affine(m, s, x) for s in t.args()]
        if any(p is None for p in parts):
            return None
        coeff, rests = 0, []
        for k, p in enumerate(parts):
            assert p is not None
            sign = -1 if t.is_minus() and k > 0 else 1
            coeff += sign * p[0]
            rests.append(_scaled(m, sign, p[1]))
        return coeff, _sum(m, rests)
    if t.is_times() and len(t.args()) == 2:
        left, right = t.args()
        const, var = (left, right) if left.is_int_constant() else (right, left)
        if not const.is_int_constant():
            return None
        inner = _affine(m, var, x)
        if inner is None:
            return None
        k = int(const.constant_value())
        return k * inner[0], _scaled(m, k, inner[1])
    return None


def _only_index(body: FNode, x: FNode) -> FNode | None:
    """The one argument term through which `x` reaches function applications in `body`, when
    there is exactly one (x in any other argument, or in two different ones: None)."""
    found: FNode | None = None
    seen: set[FNode] = set()
    stack = [body]
    while stack:
        f = stack.pop()
        if f in seen:
            continue
        seen.add(f)
        if f.is_function_application():
            for arg in f.args():
                if x not in arg.get_free_variables():
                    continue
                if found is None:
                    found = arg
                elif arg is not found:
                    return None
                # x inside the index itself (f(g(x))) makes g's argument another index
                if any(s.is_function_application() for s in _subterms_with(arg, x)):
                    return None
            continue
        stack.extend(f.args())
    return found


def _subterms_with(t: FNode, x: FNode) -> list[FNode]:
    out: list[FNode] = []
    stack = [t]
    while stack:
        f = stack.pop()
        if x in f.get_free_variables():
            out.append(f)
            stack.extend(f.args())
    return out
