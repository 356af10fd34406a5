"""The substitution rule for a mask variable's definition (proof/mask_subst.py): H-IF's
consequence `ψ[e/z] && \\all(e == z) → ψ` needs no solver, but only where every z is read
at a thread of T; elsewhere the side condition goes to the solver, which refutes the false ones."""

from __future__ import annotations

from hoaregpu.proof.checker import check_proof, is_trivial, mask_vars, structure
from hoaregpu.proof.formula_ops import subst_name
from hoaregpu.proof.mask_subst import by_mask_definition
from hoaregpu.proof.parse import parse_formula_text
from hoaregpu.proof.syntax import show
from hoaregpu.solvers import Outcome, SolverOptions

from .helpers import derived
from .test_aggregate_smt import decide

P = parse_formula_text
Z = {"z1"}
E = "a[tid] > 0"  # the branch condition


def rule(psi: str, e: str = E, z: str = "z1", masks: set[str] = Z) -> bool:
    """Does the rule accept `ψ[e/z] && \\all(e == z) → ψ`?"""
    goal = P(psi)
    hyp = P(f"({show(subst_name(goal, z, P(e)))}) && \\all({e} == {z})")
    return by_mask_definition(hyp, goal, masks)


GUARDED = [
    r"\forall int t; 0 <= t && t < ntid && z1 @ t ==> (x >= 0) @ t",
    r"\forall x'1; assign(x'1, z1, x, [], a[tid]) ==> \forall int t; 0 <= t && t < ntid ==> x'1 @ t == 1",
    r"(\all(z1) || \none(z1)) && n > 0",
    r"\forall int t; 0 <= t && t < ntid ==> (\sum(0, n, \lambda int k; a[k]) > 0 && z1) @ t",
    r"\forall int t; 0 <= t && t < ntid ==> (z1 @ tid == 1) @ t",
]


def test_accepted_where_z_is_read_in_range() -> None:
    for psi in GUARDED:
        assert rule(psi), psi


UNGUARDED = [
    r"\forall int t; 0 <= t ==> (z1 == 1) @ t",  # t may be ntid or more
    r"\forall int t; 0 <= t || t < ntid ==> (z1 == 1) @ t",
    r"(z1 == 1) @ 7",
    r"\forall int t; 0 <= t && t < ntid ==> (z1 @ (t + 1) == 1) @ t",
    r"\forall int t; 0 <= t && t < ntid ==> \forall int t; (z1 == 1) @ t",  # t rebound, no range
    r"\all(\old(z1) == 1)",
    r"\all(\sum(0, 3, \lambda int t; z1 @ t) == 1)",
]


def test_refused_where_z_may_be_read_outside_t() -> None:
    for psi in UNGUARDED:
        assert not rule(psi), psi


def test_refused_without_the_exact_substitution_or_for_other_names() -> None:
    goal = P(GUARDED[0])
    wrong = P(
        rf"(\forall int t; 0 <= t && t < ntid && (a[tid] >= 0) @ t ==> (x >= 0) @ t) && \all({E} == z1)"
    )
    assert not by_mask_definition(wrong, goal, Z)
    assert not rule(GUARDED[0], masks=set())  # z1 is no mask variable of the proof
    assert not is_trivial(wrong, goal, Z)


def test_an_unguarded_false_side_condition_goes_to_the_solver_and_is_refuted() -> None:
    """`ψ[e/z] && \\all(e == z) → ψ` with z read at thread ntid: false (z there is free)."""
    psi = r"\forall int t; 0 <= t && t <= ntid ==> (z1 == 1) @ t"
    goal = P(psi)
    hyp = P(f"({show(subst_name(goal, 'z1', P('1')))}) && \\all(1 == z1)")
    assert not by_mask_definition(hyp, goal, Z)
    assert decide(show(hyp), psi, 4, masks=Z) is Outcome.REFUTED


def test_generated_if_consequences_are_trivial_and_bugs_still_refuted() -> None:
    proof = derived("specs/nested_branches.cu")
    result, _ = structure(proof)
    zs = mask_vars(proof)
    by_rule = [s for s in result.sides if s.trivial and not is_trivial(s.hyp, s.goal)]
    assert by_rule and all(is_trivial(s.hyp, s.goal, zs) for s in by_rule)
    # the planted bug's derivation (its if-branches included) is still refuted
    bug = check_proof(derived("specs/bug_sum_tree_reduction8.cu"), "z3", SolverOptions(timeout=60), jobs=2)
    assert bug.exit_code == 1 and bug.problems[0].kind == "refuted", bug.render()
