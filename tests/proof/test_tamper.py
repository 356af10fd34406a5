"""Tampered proofs are rejected, each for the right reason, at the right node."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from hoaregpu.proof.checker import check_proof
from hoaregpu.proof.derivation import ProofFormatError, parse_proof, read_proof, render
from hoaregpu.proof.formula import (
    AllNone,
    Bin,
    FnForall,
    Name,
    Num,
    PSeq,
    PSync,
    PWhile,
    and_,
    implies,
    mask_expr,
)
from hoaregpu.proof.parse import parse_formula_text
from hoaregpu.solvers import SolverOptions
from hoaregpu.terms import BinOp

from .helpers import derived, find, first_problem, tampered

VEC = "specs/vector_add_fixed4.cu"
NESTED = "specs/nested_branches.cu"
BARRIERS = "specs/barrier_uniform.cu"
FAST = SolverOptions(timeout=10)


@pytest.fixture(scope="module")
def vec():  # type: ignore[no-untyped-def]
    return derived(VEC)


@pytest.fixture(scope="module")
def hand_vec():  # type: ignore[no-untyped-def]
    """Hand-written: its H-ASSIGN nodes stand right under H-CONSEQ nodes, so changing one
    breaks no syntactic check above it."""
    return read_proof("proofs/handwritten/vector_add_fixed4.proof")


@pytest.fixture(scope="module")
def hand_sum():  # type: ignore[no-untyped-def]
    return read_proof("proofs/handwritten/array_sum_n2.proof")


@pytest.fixture(scope="module")
def nested():  # type: ignore[no-untyped-def]
    return derived(NESTED)


def test_untampered_are_well_formed(vec, nested) -> None:  # type: ignore[no-untyped-def]
    from hoaregpu.proof.checker import structure

    for p in (vec, nested, derived(BARRIERS)):
        result, _ = structure(p)
        assert result.problems == []


def test_wrong_rule_name(vec) -> None:  # type: ignore[no-untyped-def]
    def change(p):  # type: ignore[no-untyped-def]
        find(p, "H-SEQ").rule = "H-IF"

    _, kind, reason, line = first_problem(tampered(vec, change))
    assert kind == "wrong" and "H-IF is for `if e then P else Q fi`" in reason
    assert line == find(vec, "H-SEQ").line


def test_unknown_rule_name(vec) -> None:  # type: ignore[no-untyped-def]
    def change(p):  # type: ignore[no-untyped-def]
        find(p, "H-ASSIGN").rule = "H-ASSIGNMENT"

    _, kind, reason, _ = first_problem(tampered(vec, change))
    assert kind == "wrong" and "unknown rule H-ASSIGNMENT" in reason


def test_mask_not_of_the_required_shape(nested) -> None:  # type: ignore[no-untyped-def]
    def change(p):  # type: ignore[no-untyped-def]
        node = find(p, "H-IF")
        z, _ = node.premises[0].mask[-1]
        node.premises[0].mask = (*node.mask, (z, False))  # m && !z where m && z is required

    _, kind, reason, line = first_problem(tampered(nested, change))
    assert kind == "wrong" and "mask of the first premise must be `T && z`" in reason
    assert line == find(nested, "H-IF").line


def test_z_not_fresh(nested) -> None:  # type: ignore[no-untyped-def]
    """The inner if reuses the outer if's z, which is in its conclusion's mask."""

    def change(p):  # type: ignore[no-untyped-def]
        inner = find(p, "H-IF", lambda n: len(n.mask) == 1)
        outer_z = inner.mask[0][0]
        for q in inner.premises:
            q.mask = (*q.mask[:-1], (outer_z, q.mask[-1][1]))

    _, kind, reason, _ = first_problem(tampered(nested, change))
    assert (
        kind == "wrong"
        and "is not fresh: it occurs in the conclusion's" in reason
        and reason.endswith("mask")
    )


def test_z_in_the_program(vec) -> None:  # type: ignore[no-untyped-def]
    """The loop's mask variable is `n`, a variable of the program."""

    def change(p):  # type: ignore[no-untyped-def]
        loop = find(p, "H-WHILE")
        (z, _) = loop.premises[0].mask[-1]
        for node in loop.premises[0].walk():
            node.mask = tuple(("n" if v == z else v, pos) for v, pos in node.mask)

    _, kind, reason, line = first_problem(tampered(vec, change))
    assert kind == "wrong" and "z = n occurs in the program" in reason
    assert line == find(vec, "H-WHILE").line


def test_x_prime_not_fresh(hand_vec) -> None:  # type: ignore[no-untyped-def]
    """x' = k'1 also occurs free in the postcondition φ, so φ[x'/x] would capture it."""

    def change(p):  # type: ignore[no-untyped-def]
        node = find(p, "H-ASSIGN", lambda n: n.mask != ())
        assert isinstance(node.pre, FnForall)
        xp = node.pre.name
        node.post = and_(node.post, parse_formula_text(f"{xp} @ 0 == 0"))

    _, kind, reason, line = first_problem(tampered(hand_vec, change))
    assert line == find(hand_vec, "H-ASSIGN", lambda n: n.mask != ()).line
    assert kind == "wrong" and "is not fresh: it occurs in the postcondition" in reason


def test_assign_precondition_not_of_the_schema(hand_vec) -> None:  # type: ignore[no-untyped-def]
    """φ instead of φ[x'/x] after the assign predicate."""

    def change(p):  # type: ignore[no-untyped-def]
        node = find(p, "H-ASSIGN", lambda n: n.mask != ())
        assert isinstance(node.pre, FnForall) and isinstance(node.pre.body, Bin)
        node.pre = FnForall(node.pre.name, implies(node.pre.body.left, node.post))

    _, kind, reason, _ = first_problem(tampered(hand_vec, change))
    assert kind == "wrong" and "H-ASSIGN: the precondition is not" in reason


def test_assign_with_wrong_mask(hand_vec) -> None:  # type: ignore[no-untyped-def]
    def change(p):  # type: ignore[no-untyped-def]
        node = find(p, "H-ASSIGN", lambda n: n.mask != ())
        node.pre = parse_formula_text(render_f(node.pre).replace("assign(c'1, z1,", "assign(c'1, 1,"))

    _, kind, reason, _ = first_problem(tampered(hand_vec, change))
    assert kind == "wrong" and "H-ASSIGN: the precondition is not" in reason


def render_f(f):  # type: ignore[no-untyped-def]
    from hoaregpu.proof.syntax import show

    return show(f)


def test_seq_middle_assertions_do_not_match(vec) -> None:  # type: ignore[no-untyped-def]
    def change(p):  # type: ignore[no-untyped-def]
        node = find(p, "H-SEQ", lambda n: n.mask != ())
        node.premises[1].pre = and_(node.premises[1].pre, Num(1))

    _, kind, reason, line = first_problem(tampered(vec, change))
    assert kind == "wrong" and "H-SEQ: the middle assertions do not match" in reason
    assert line == find(vec, "H-SEQ", lambda n: n.mask != ()).line


def test_if_second_premise_not_from_first_post(nested) -> None:  # type: ignore[no-untyped-def]
    def change(p):  # type: ignore[no-untyped-def]
        node = find(p, "H-IF")
        node.premises[1].pre = node.pre  # φ instead of ψ: the rule for C's if, not SIMT's

    _, kind, reason, _ = first_problem(tampered(nested, change))
    assert kind == "wrong" and "second premise must start from the first premise's postcondition" in reason


def test_if_first_premise_without_e_equals_z(nested) -> None:  # type: ignore[no-untyped-def]
    def change(p):  # type: ignore[no-untyped-def]
        node = find(p, "H-IF")
        node.premises[0].pre = node.pre

    _, kind, reason, _ = first_problem(tampered(nested, change))
    assert kind == "wrong" and "first premise's precondition is φ && e = z" in reason


def test_while_postcondition_not_invariant_and_none(vec) -> None:  # type: ignore[no-untyped-def]
    def change(p):  # type: ignore[no-untyped-def]
        node = find(p, "H-WHILE")
        assert isinstance(node.prog, PWhile)
        node.post = and_(node.pre, AllNone(True, Bin(BinOp.GE, Name("k"), Name("n"))))

    _, kind, reason, _ = first_problem(tampered(vec, change))
    assert kind == "wrong" and "H-WHILE: the postcondition must be I && \\none(m && e)" in reason


def test_while_premise_does_not_restore_invariant(vec) -> None:  # type: ignore[no-untyped-def]
    def change(p):  # type: ignore[no-untyped-def]
        node = find(p, "H-WHILE")
        node.premises[0].post = Num(1)

    _, kind, reason, _ = first_problem(tampered(vec, change))
    assert kind == "wrong" and "premise's postcondition is the invariant" in reason


def test_sync_in_the_non_strict_form(hand_sum) -> None:  # type: ignore[no-untyped-def]
    """{all(m) ∨ none(m) → φ} m ⇒ sync {φ} is Fig. 2's rule; the checker wants §7's strict one."""

    def change(p):  # type: ignore[no-untyped-def]
        seq = find(p, "H-SEQ", lambda n: isinstance(n.premises[1].prog, PSync))
        node = seq.premises[1]
        me = mask_expr(node.mask)
        node.pre = implies(Bin(BinOp.OR, AllNone(True, me), AllNone(False, me)), node.post)
        seq.premises[0].post = node.pre

    _, kind, reason, _ = first_problem(tampered(hand_sum, change))
    assert kind == "wrong" and "H-SYNC (strict, §7)" in reason


def test_missing_premise(vec) -> None:  # type: ignore[no-untyped-def]
    def change(p):  # type: ignore[no-untyped-def]
        node = find(p, "H-SEQ", lambda n: isinstance(n.prog, PSeq))
        del node.premises[1]

    _, kind, reason, _ = first_problem(tampered(vec, change))
    assert kind == "wrong" and "H-SEQ has 2 premises, found 1" in reason


def test_missing_premise_in_the_file(vec) -> None:  # type: ignore[no-untyped-def]
    """Deleting a premise's block from the text: the H-WHILE node is left without one."""
    lines = render(vec).splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip() == "H-WHILE")
    indent = len(lines[start]) - len(lines[start].lstrip())
    end = start + 1
    while end < len(lines) and not (
        lines[end].strip().startswith("H-") and len(lines[end]) - len(lines[end].lstrip()) <= indent
    ):
        end += 1
    premise = next(i for i in range(start + 1, end) if lines[i].strip().startswith("H-"))
    text = "\n".join(lines[:premise] + lines[end:]) + "\n"
    _, kind, reason, line = first_problem(parse_proof(text, "<tampered>"))
    assert kind == "wrong" and "H-WHILE has 1 premise, found 0" in reason and line == start + 1


def test_refuted_consequence(vec) -> None:  # type: ignore[no-untyped-def]
    """The loop's exit claims one cell more than the invariant gives: the solver refutes
    the H-CONSEQ side condition I && none(m && e) → ψ'."""
    stronger = parse_formula_text("\\forall int j; 0 <= j && j < n + 1 ==> c[j] == a[j] + b[j]")

    def change(p):  # type: ignore[no-untyped-def]
        seq = p.root.premises[0]
        seq.post = stronger
        seq.premises[1].post = stronger

    bad = tampered(vec, change)
    result = check_proof(bad, "z3", FAST)
    assert result.exit_code == 1
    (problem,) = result.problems
    assert problem.kind == "refuted" and "ψ → ψ' (side-post) is false" in problem.reason
    assert problem.line == bad.root.premises[0].premises[1].line and problem.rule == "H-CONSEQ"


def _spec_copy(tmp_path: Path, edit: tuple[str, str]) -> str:
    text = Path(VEC).read_text()
    assert edit[0] in text
    out = tmp_path / "vector_add_fixed4.cu"
    out.write_text(text.replace(*edit))
    return str(out)


def test_root_does_not_match_changed_ensures(vec, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    spec = _spec_copy(tmp_path, ("c[j] == a[j] + b[j];", "c[j] == a[j] - b[j];"))
    proof = tampered(vec, lambda p: setattr(p, "spec", spec))
    result, kind, reason, line = first_problem(proof)
    assert kind == "wrong" and "root's postcondition is not the kernel's contract" in reason
    assert line == proof.root.line and result.exit_code == 1


def test_stale_program(vec, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    spec = _spec_copy(tmp_path, ("k = k + blockDim.x;", "k = k + 4;"))
    result, kind, reason, _ = first_problem(tampered(vec, lambda p: setattr(p, "spec", spec)))
    assert kind == "stale" and "program changed" in reason and result.exit_code == 3


def test_changed_invariant_is_not_stale(tmp_path: Path) -> None:
    """Loop invariants are the proof's business: changing them in the spec keeps old proofs valid."""
    spec = _spec_copy(tmp_path, ("loop invariant k >= threadIdx.x;", "loop invariant k >= 0;"))
    proof = derived(VEC)
    proof.spec = spec
    result, _ = __import__("hoaregpu.proof.checker", fromlist=["structure"]).structure(proof)
    assert result.problems == []


def test_thread_count_changed(vec) -> None:  # type: ignore[no-untyped-def]
    _, kind, reason, _ = first_problem(tampered(vec, lambda p: setattr(p, "threads", 8)))
    assert kind == "stale" and "threads: 8" in reason


def test_missing_spec_is_an_input_error(vec) -> None:  # type: ignore[no-untyped-def]
    result, kind, _, _ = first_problem(tampered(vec, lambda p: setattr(p, "spec", "specs/nope.cu")))
    assert kind == "input" and result.exit_code == 3


def test_ill_formed_formula_local_without_thread(vec) -> None:  # type: ignore[no-untyped-def]
    def change(p):  # type: ignore[no-untyped-def]
        node = find(p, "H-SKIP", lambda n: True) if any(n.rule == "H-SKIP" for n in p.root.walk()) else None
        assert node is None
        seq = find(p, "H-SEQ", lambda n: n.mask != ())
        seq.post = and_(seq.post, parse_formula_text("k >= 0"))
        seq.premises[1].post = seq.post

    _, kind, reason, _ = first_problem(tampered(vec, change))
    assert kind == "wrong" and "local 'k' read without a thread" in reason


def test_syntax_error_has_a_line(vec) -> None:  # type: ignore[no-untyped-def]
    text = render(vec).replace("mask: z1", "mask: z1 &&", 1)
    with pytest.raises(ProofFormatError) as e:
        parse_proof(text)
    assert e.value.line == text.splitlines().index("          mask: z1 &&") + 1


def test_cli_exit_codes(vec, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from hoaregpu.cli import main

    good = tmp_path / "good.proof"
    good.write_text(render(vec))
    assert main(["check", str(good), "--timeout", "10"]) == 0
    spec = _spec_copy(tmp_path, ("k = k + blockDim.x;", "k = k + 4;"))
    stale = tmp_path / "stale.proof"
    stale.write_text(render(vec).replace(f"spec: {VEC}", f"spec: {spec}"))
    assert main(["check", str(stale)]) == 3
    broken = tmp_path / "broken.proof"
    broken.write_text(render(vec).replace("H-SEQ", "H-IF", 1))
    assert main(["check", str(broken)]) == 1
    assert shutil.which("true") is not None
