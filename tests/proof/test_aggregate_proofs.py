"""Derivations of kernels whose specs use aggregates: the checker rejects the derivation of a
planted bug and a proof whose invariant is wrong, each at a side condition it refutes.
(The proofs of the correct kernels are replayed by test_replay_proofs.py.)"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from hoaregpu.proof.checker import check_proof
from hoaregpu.proof.derivation import parse_proof, read_proof, render
from hoaregpu.solvers import SolverOptions

from .helpers import derived

OPTIONS = SolverOptions(timeout=60)

BUGS = [
    "specs/bug_sum_kogge_stone8.cu",  # `threadIdx.x > d`: the partner at distance d is skipped
    "specs/bug_numof_positive.cu",  # `>= 0` counts zeros (any thread count: symbolic \numof)
    "specs/bug_max_reduction4.cu",
    "specs/bug_sum_tree_reduction8.cu",
]


@pytest.mark.parametrize("spec", BUGS)
def test_the_derivation_of_a_planted_bug_is_rejected(spec: str) -> None:
    proof = derived(spec)  # what `prove` derives (it writes nothing for a refuted kernel)
    result = check_proof(proof, "z3", OPTIONS, jobs=2)
    assert result.exit_code == 1, result.render()
    problem = result.problems[0]
    assert (problem.kind, problem.rule) == ("refuted", "H-CONSEQ"), result.render()
    assert "is false" in problem.reason


def test_the_correct_twin_checks() -> None:
    """The same derivation procedure on the correct kernel is accepted (so the rejection
    above is the bug's, not the translation's)."""
    result = check_proof(derived("specs/sum_kogge_stone8.cu"), "z3", OPTIONS, jobs=2)
    assert result.exit_code == 0, result.render()


def test_a_wrong_scan_invariant_is_refuted(tmp_path: Path) -> None:
    """Every node still an instance of its rule (the invariant changed everywhere it
    occurs): the entry side condition is false, since at d = 1 the range `j - d + 0 .. j`
    has two cells."""
    text = Path("proofs/generated/sum_kogge_stone8.proof").read_text()
    bound = re.compile(r"j - (d(?:'\d+)?) @ 0 \+ 1")  # d and its primed versions d'1, ...
    assert len(bound.findall(text)) > 4
    wrong = tmp_path / "wrong.proof"
    wrong.write_text(bound.sub(r"j - \1 @ 0", text))  # spec: stays relative to the repo root
    result = check_proof(read_proof(str(wrong)), "z3", OPTIONS, jobs=2)
    assert result.exit_code == 1, result.render()
    assert result.problems[0].kind == "refuted"


def test_a_generated_aggregate_proof_round_trips() -> None:
    proof = read_proof("proofs/generated/sum_kogge_stone1024.proof")
    again = parse_proof(render(proof), proof.path)
    for a, b in zip(proof.root.walk(), again.root.walk(), strict=True):
        assert (a.rule, a.pre, a.mask, a.prog, a.post) == (b.rule, b.pre, b.mask, b.prog, b.post)


def test_a_symbolic_per_thread_sum_over_two_arrays_checks() -> None:
    """`acc == \\sum(0, k - 1, \\lambda int i; A[tid * n + i] * x[i])` for any n and thread
    count: the body captures the thread (an argument of the prefix function), the product of
    two reads is nonlinear; the loop's step is the prefix function's step axiom."""
    result = check_proof(derived("tests/proof/data/matvec_sum.cu"), "z3", OPTIONS, jobs=2)
    assert result.exit_code == 0, result.render()
    assert sum(1 for s in result.sides if not s.trivial) == 3
