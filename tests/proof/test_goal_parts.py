"""Side conditions are solved one goal part at a time, and hypotheses get the one-point
rule: both only make the solver's work steadier, never change what is valid."""

from __future__ import annotations

from pysmt.environment import get_env, pop_env, push_env
from pysmt.shortcuts import Equals, ForAll, Function, Iff, Implies, Int, Not, Plus, Symbol, is_valid
from pysmt.typing import BOOL, INT, FunctionType

from hoaregpu.proof.checker import check_proof, combined, is_trivial, mask_vars, scripts, structure
from hoaregpu.proof.derivation import read_proof
from hoaregpu.proof.goal_parts import MAX_GOAL_PARTS, goal_parts
from hoaregpu.proof.onepoint import one_point
from hoaregpu.proof.parse import parse_formula_text
from hoaregpu.proof.syntax import show
from hoaregpu.solvers import Outcome, SolverOptions, SolverResult


def parts(text: str) -> list[str]:
    return [show(p) for p in goal_parts(parse_formula_text(text))]


def test_conjunctions_split_under_implication_binders_and_threads() -> None:
    assert parts("a[0] == 1 && a[1] == 2") == ["a[0] == 1", "a[1] == 2"]
    assert len(parts("n > 0 ==> (a[0] == 1 && (a[1] == 2 && a[2] == 3))")) == 3
    assert len(parts(r"\forall int j; 0 <= j ==> a[j] == 1 && b[j] == 2")) == 2
    assert len(parts(r"\forall int t; 0 <= t && t < ntid ==> (k == 1 && m == 2) @ t")) == 2
    assert len(parts(r"\all(k == 1 && m == 2)")) == 2
    # Each part keeps its binders and hypotheses.
    assert all(
        p.startswith(r"\forall int j; 0 <= j ==>")
        for p in parts(r"\forall int j; 0 <= j ==> a[j] == 1 && b[j] == 2")
    )


def test_no_split_where_validity_does_not_distribute() -> None:
    assert len(parts(r"\exists int j; a[j] == 1 && b[j] == 2")) == 1
    assert len(parts("a[0] == 1 || (a[1] == 2 && a[2] == 3)")) == 1
    assert len(parts("(a[0] == 1 && a[1] == 2) ==> a[2] == 3")) == 1
    assert len(parts(r"\none(k == 1 && m == 2)")) == 1


def test_too_many_parts_stay_whole() -> None:
    many = " && ".join(f"a[{i}] == {i}" for i in range(MAX_GOAL_PARTS + 1))
    assert len(parts(many)) == 1
    assert len(parts(" && ".join(f"a[{i}] == {i}" for i in range(MAX_GOAL_PARTS)))) == MAX_GOAL_PARTS


def test_a_quantifier_over_a_literal_box_splits_into_its_instances() -> None:
    assert parts(r"\forall int r, c; 0 <= r && r < 2 && 1 <= c && c <= 2 ==> a[r * 4 + c] == 1") == [
        "0 <= 0 && 0 < 2 && 1 <= 1 && 1 <= 2 ==> a[0 * 4 + 1] == 1",
        "0 <= 0 && 0 < 2 && 1 <= 2 && 2 <= 2 ==> a[0 * 4 + 2] == 1",
        "0 <= 1 && 1 < 2 && 1 <= 1 && 1 <= 2 ==> a[1 * 4 + 1] == 1",
        "0 <= 1 && 1 < 2 && 1 <= 2 && 2 <= 2 ==> a[1 * 4 + 2] == 1",
    ]
    # the bound may stand either side, be negative, and the tightest one counts
    assert len(parts(r"\forall int j; -2 <= j && 3 > j && j < 10 ==> a[j] == 1")) == 5
    # an integer without two literal bounds, a bound on another name, an empty box, or a box
    # of more points than parts allowed: the quantifier stays
    for kept in (
        r"\forall int j; 0 <= j && j < n ==> a[j] == 1",
        r"\forall int j; 0 <= j && (j < 3 || j < 4) ==> a[j] == 1",
        r"\forall int j; 0 <= k && k < 3 ==> a[j] == 1",
        r"\forall int j; 3 <= j && j < 3 ==> a[j] == 1",
        rf"\forall int j; 0 <= j && j <= {MAX_GOAL_PARTS} ==> a[j] == 1",
    ):
        assert parts(kept) == [show(parse_formula_text(kept))], kept


def test_box_instances_cover_exactly_the_guarded_integers() -> None:
    """`1 < j && j <= 4`: the instances are j = 2, 3, 4 (the strict bound and the tighter of
    two upper bounds), and the quantifier is equivalent to their conjunction (z3)."""
    from hoaregpu.proof.formula import Quant
    from hoaregpu.proof.goal_parts import box_instances

    q = parse_formula_text(r"\forall int j; 1 < j && j <= 9 && j <= 4 ==> a[j] == 1")
    assert isinstance(q, Quant)
    points = box_instances(q)
    assert points is not None
    assert [show(p) for p in points] == [
        f"1 < {v} && {v} <= 9 && {v} <= 4 ==> a[{v}] == 1" for v in (2, 3, 4)
    ]
    a = Symbol("a", FunctionType(INT, [INT]))
    j = Symbol("j", INT)
    whole = ForAll([j], Implies((Int(1) < j) & (j <= Int(4)), Equals(Function(a, [j]), Int(1))))
    cells = [Equals(Function(a, [Int(v)]), Int(1)) for v in (2, 3, 4)]
    assert is_valid(Iff(whole, cells[0] & cells[1] & cells[2]), solver_name="z3")


def _r(outcome: Outcome, seconds: float, solver: str = "z3") -> SolverResult:
    return SolverResult(outcome, solver, seconds)


def test_a_side_condition_is_proved_only_when_every_part_is() -> None:
    proved = combined([_r(Outcome.PROVED, 1.0, "z3"), _r(Outcome.PROVED, 2.0, "cvc5")])
    assert (proved.outcome, proved.solver, proved.seconds) == (Outcome.PROVED, "cvc5", 3.0)
    assert combined([_r(Outcome.PROVED, 1.0), _r(Outcome.TIMEOUT, 10.0)]).outcome is Outcome.TIMEOUT
    mixed = [_r(Outcome.TIMEOUT, 10.0), _r(Outcome.REFUTED, 0.1), _r(Outcome.PROVED, 1.0)]
    assert combined(mixed).outcome is Outcome.REFUTED


def test_one_point_adds_the_instance_friendly_form_of_a_hypothesis() -> None:
    push_env()
    try:
        env = get_env()
        x, y = Symbol("x", INT), Symbol("y", INT)
        p = Symbol("p", FunctionType(BOOL, [INT]))
        hyp = ForAll([x], Implies(Equals(x, Plus(y, Int(1))), Function(p, [x])))
        rewritten = one_point(hyp, env)
        assert rewritten != hyp
        assert Function(p, [Plus(y, Int(1))]) in rewritten.args()  # x replaced by y + 1
        assert is_valid(Iff(rewritten, hyp), solver_name="z3")
        # A goal's quantifier (under a negation: Skolemized) is left as it is.
        assert one_point(Not(hyp), env) == Not(hyp)
        # x occurring in its own definition: no rewrite.
        circular = ForAll([x], Implies(Equals(x, Plus(x, y)), Function(p, [x])))
        assert one_point(circular, env) == circular
    finally:
        pop_env()


def test_vector_add_symbolic_proof_checks_on_seeds_that_used_to_time_out() -> None:
    """Before goal parts and the one-point rule, its loop-exit and loop-step side conditions
    ran past 60 s of z3 on seeds 1, 3 and 7 (0.3 s to 5 s on others)."""
    proof = read_proof("proofs/generated/vector_add_symbolic.proof")
    for seed in (1, 7):
        result = check_proof(proof, "z3", SolverOptions(timeout=60, seed=seed), jobs=2)
        assert result.exit_code == 0, result.render()


def test_parts_that_are_hypothesis_conjuncts_go_to_no_solver() -> None:
    skipped = 0
    # (barrier_uniform's and break_search's such side conditions are now trivial as a whole:
    # H-IF consequences, proof/mask_subst.py)
    for path in ("proofs/generated/shared_guard_loop.proof", "proofs/handwritten/array_sum_n2.proof"):
        proof = read_proof(path)
        result, info = structure(proof)
        assert info is not None
        todo = [s for s in result.sides if not s.trivial]
        for side, made in zip(todo, scripts(result, info, mask_vars(proof)), strict=True):
            assert isinstance(made, list)
            left = [g for g in goal_parts(side.goal) if not is_trivial(side.hyp, g, mask_vars(proof))]
            # the non-trivial parts, or the whole goal (where a part alone is untranslatable)
            assert len(made) in (max(1, len(left)), 1)
            if len(made) == len(left):
                skipped += len(goal_parts(side.goal)) - len(left)
    assert skipped > 0
