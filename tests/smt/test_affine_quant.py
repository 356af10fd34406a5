"""The affine rewrites of integer quantifiers (`smt.affine_quant`): equivalences, and what
they give the solver."""

from __future__ import annotations

from pathlib import Path

from pipeline_kit import PROVED, REFUTED, decide, verified
from pysmt.fnode import FNode
from pysmt.shortcuts import (
    LE,
    LT,
    And,
    Equals,
    Exists,
    ForAll,
    Function,
    Iff,
    Implies,
    Int,
    Minus,
    Not,
    Plus,
    Symbol,
    Times,
)
from pysmt.typing import INT, FunctionType

from hoaregpu.driver import fresh_env
from hoaregpu.smt.affine_quant import AffineQuantifiers

ARRAY = FunctionType(INT, [INT])


def _apps_args(f: FNode) -> set[FNode]:
    out: set[FNode] = set()
    stack = [f]
    while stack:
        g = stack.pop()
        if g.is_function_application():
            out.update(g.args())
        stack.extend(g.args())
    return out


def _quantified(f: FNode) -> bool:
    stack = [f]
    while stack:
        g = stack.pop()
        if g.is_quantifier():
            return True
        stack.extend(g.args())
    return False


def test_existential_with_a_coefficient_is_eliminated_by_its_equation() -> None:
    """The paper's invariant `\\exists l; k == l * 4 + t && ...` as a goal: one point, no
    quantifier; as a hypothesis the solver Skolemizes it, and it is left alone."""
    with fresh_env() as env:
        c, k, t, el = Symbol("c", ARRAY), Symbol("k", INT), Symbol("t", INT), Symbol("el", INT)
        f = Exists(
            [el],
            And(Equals(k, Plus(Times(el, Int(4)), t)), LE(Int(0), el), Equals(Function(c, [el]), Int(1))),
        )
        out = AffineQuantifiers(env).refuted(f)
        assert not _quantified(out)
        assert decide([Iff(f, out)]) == [PROVED]
        assert AffineQuantifiers(env).asserted(f) is f


def test_universal_with_the_equation_in_its_antecedent() -> None:
    with fresh_env() as env:
        c, s, x = Symbol("c", ARRAY), Symbol("s", INT), Symbol("x", INT)
        f = ForAll([x], Implies(Equals(Times(Int(3), x), Minus(s, Int(1))), Equals(Function(c, [x]), x)))
        out = AffineQuantifiers(env).asserted(f)
        assert not _quantified(out)
        assert decide([Iff(f, out)]) == [PROVED]


def test_coefficient_one_is_left_to_the_solver() -> None:
    with fresh_env() as env:
        c, k, el = Symbol("c", ARRAY), Symbol("k", INT), Symbol("el", INT)
        f = Exists([el], And(Equals(k, Plus(el, Int(2))), Equals(Function(c, [Times(Int(2), el)]), Int(1))))
        out = AffineQuantifiers(env).refuted(f)
        # the index change applies (2l), the one point does not (the solver's own job)
        assert out.is_exists()
        assert decide([Iff(f, out)]) == [PROVED]


def test_affine_index_becomes_the_bound_variable() -> None:
    """`∀m. 0 <= m < n ==> c[4m + t] == 0` triggers on `c(y)` afterwards, and the instance
    `j = 4·(j div 4) + t` a solver needs for `c[j]` is then plain e-matching."""
    with fresh_env() as env:
        c, n, t, m, j = (
            Symbol(s, ty) for s, ty in (("c", ARRAY), ("n", INT), ("t", INT), ("m", INT), ("j", INT))
        )
        idx = Plus(Times(m, Int(4)), t)
        f = ForAll([m], Implies(And(LE(Int(0), m), LT(m, n)), Equals(Function(c, [idx]), Int(0))))
        out = AffineQuantifiers(env).asserted(f)
        # a goal's universal is Skolemized by the solver: no instance needed, left as it is
        assert AffineQuantifiers(env).refuted(f) is f
        assert out.is_forall()
        (y,) = out.quantifier_vars()
        assert _apps_args(out) == {y}
        assert decide([Iff(f, out)]) == [PROVED]
        # what it is for: the fact at a cell j of the right residue, below the bound
        fact = Implies(
            And(
                out,
                Equals(Minus(j, t), Times(Int(4), Symbol("q", INT))),
                LE(Int(0), Symbol("q", INT)),
                LT(Symbol("q", INT), n),
            ),
            Equals(Function(c, [j]), Int(0)),
        )
        assert decide([fact]) == [PROVED]
        # and it stays a statement about those cells only
        other = Implies(out, Equals(Function(c, [Plus(Times(Int(4), n), t)]), Int(0)))
        assert decide([other]) == [REFUTED]


def test_variable_in_two_different_indices_is_left_alone() -> None:
    """A thread quantifier's `k(t)` beside `s(t - 1)`, or a step axiom's `P(x)` beside
    `P(x - 1)`: no single index to name, the formula is returned as it was."""
    with fresh_env() as env:
        s, k, t = Symbol("s", ARRAY), Symbol("k", ARRAY), Symbol("t", INT)
        f = ForAll([t], Equals(Function(k, [t]), Function(s, [Minus(t, Int(1))])))
        assert AffineQuantifiers(env).asserted(f) is f
        g = ForAll([t], Equals(Function(k, [t]), Int(0)))
        assert AffineQuantifiers(env).asserted(g) is g


def test_negated_rewrite_keeps_countermodels() -> None:
    """An equivalence in every position: a false statement stays refutable."""
    with fresh_env() as env:
        c, k, el = Symbol("c", ARRAY), Symbol("k", INT), Symbol("el", INT)
        f = Exists(
            [el],
            And(Equals(k, Times(Int(4), el)), Equals(Function(c, [Plus(Times(Int(2), el), Int(1))]), Int(7))),
        )
        out = AffineQuantifiers(env).refuted(f)
        assert decide([Not(out)]) == [REFUTED]
        assert decide([out]) == [REFUTED]


def test_a_hypothesis_rewritten_form_goes_only_to_the_goals_that_read_its_arrays() -> None:
    """The paper's invariant (`specs/vector_add_fixed4_exists.cu`): the postcondition reads
    `c[j]` outside quantifiers and gets the invariant over the index `y = 4·m + tid`; the
    preservation check's goal reads the arrays only under its own quantifier, and gets its
    existential's witness, not the fact (with it, z3 took seconds or timed out)."""

    from hoaregpu.driver import load_kernels, prepare_kernel

    spec = str(Path(__file__).resolve().parents[2] / "specs" / "vector_add_fixed4_exists.cu")
    (kernel,) = load_kernels(spec)
    prepared = prepare_kernel(spec, kernel, None, check_races=False)
    bodies = {vc.origin.kind.value: vc.body for vc in prepared.vcs}
    assert ".ix" in bodies["postcondition"]
    preserved = bodies["loop-invariant-preserved"]
    assert ".ix" not in preserved
    assert "(div (- (k!" in preserved and "exists" not in preserved.split("(assert (not", 1)[1]


def _capture_cases() -> list[tuple[FNode, bool]]:
    """(formula, whether it is a hypothesis) where a rewrite would put a witness under a
    binder of one of its variables, or a guard above one (adversarial review)."""
    c, d = Symbol("c", ARRAY), Symbol("d", ARRAY)
    x, m, k = Symbol("x", INT), Symbol("m", INT), Symbol("k", INT)
    two_x = Times(Int(2), x)
    return [
        (
            Exists(
                [x],
                ForAll(
                    [m],
                    Implies(And(LE(Int(0), m), LT(m, Int(2))), Equals(Function(c, [Plus(two_x, m)]), Int(0))),
                ),
            ),
            False,
        ),
        (
            Exists(
                [x],
                And(
                    Equals(Function(c, [Plus(two_x, m)]), Int(0)),
                    ForAll([m], Not(Equals(Function(d, [m]), x))),
                ),
            ),
            False,
        ),
        (Exists([x], And(Equals(two_x, k), ForAll([k], Not(Equals(Function(d, [k]), x))))), False),
        (ForAll([x], Implies(Equals(two_x, k), Exists([k], Equals(Function(d, [k]), x)))), True),
    ]


def test_no_rewrite_across_an_inner_binder() -> None:
    with fresh_env() as env:
        affine = AffineQuantifiers(env)
        for f, hypothesis in _capture_cases():
            out = affine.asserted(f) if hypothesis else affine.refuted(f)
            assert decide([Iff(f, out)]) == [PROVED], f.serialize()


def test_wrong_kernels_with_an_index_under_an_inner_quantifier_are_not_verified(tmp_path: Path) -> None:
    """The adversarial review's kernels: the offset of `c[2 * x + m]` is bound by an inner
    `\\forall`, in a goal and in a hypothesis; both wrong kernels were verified, and the
    correct twin of the first failed."""
    goal = """
/*@ requires gridDim.x == 1; requires blockDim.x == 4; requires n == 2;
    ensures \\exists int x; \\forall int m; 0 <= m < n ==> c[2 * x + 2 * m] == 0;
*/
__global__ void wrong_goal(int *c, int n) {
    c[threadIdx.x] = threadIdx.x == 0 ? 0 : 1;
}
"""
    hypothesis = """
/*@ requires gridDim.x == 1; requires blockDim.x == 4; requires n == 2; requires L == 2;
    requires \\forall int j; (j < 0 || j > 4) ==> c[j] == 1;
    requires \\forall int x; 0 <= x < L ==> (\\exists int m; 0 <= m < n && c[2 * x + 2 * m] == 0);
    ensures c[2] == 0;
*/
__global__ void wrong_hypothesis(int *c, int *out, int n, int L) {
    out[threadIdx.x] = 0;
}
"""
    right = """
/*@ requires gridDim.x == 1; requires blockDim.x == 4; requires n == 2;
    ensures \\exists int x; \\forall int m; 0 <= m < n ==> c[2 * x + m] == 0;
*/
__global__ void right_goal(int *c, int n) {
    c[threadIdx.x] = threadIdx.x < 2 ? 0 : 1;
}
"""
    for src, name in ((goal, "wrong_goal"), (hypothesis, "wrong_hypothesis")):
        assert verified(tmp_path, src, check_races=False)[name].verdict != "verified", name
    assert verified(tmp_path, right, check_races=False)["right_goal"].verdict == "verified"
