"""`--confirm` and lying solvers, end to end through `hoaregpu verify` (issue 8).

The liars are small Python programs plugged in with --solver-cmd: one proves every VC,
one prints an error line and then `unsat`, one refutes every VC with a made-up model.
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest

from hoaregpu.cli import main
from hoaregpu.solvers import Outcome, SolverResult
from hoaregpu.solvers import portfolio as portfolio_module
from hoaregpu.solvers.portfolio import combine, confirm_members

from .fakes import fake_solver

SPECS = Path(__file__).resolve().parents[2] / "specs"
FALSE_SPECS = ["bug_off_by_one.cu", "bug_assert_fails.cu", "c_division_wrong.cu"]
VALID_SPEC = str(SPECS / "vector_add_fixed4.cu")
FAST = ["--jobs", "2", "--timeout", "10", "--no-cache", "--no-replay", "--json"]

LIARS = {
    # unsat ("proved") for every VC: VC scripts assert the negated VC
    "liar": "print('unsat' if '(assert (not' in script else 'unknown')",
    "errliar": "print('(error \"x\")')\nprint('unsat')",
    # sat with a model that sets every symbol to 0 (or false)
    "bogus": """
import re
print('sat')
defs = []
for name, args, sort in re.findall(r'\\(declare-fun (\\S+) \\(([^)]*)\\) (\\w+)\\)', script):
    params = ' '.join(f'(p{i} {s})' for i, s in enumerate(args.split()))
    defs.append(f"(define-fun {name} ({params}) {sort} {'false' if sort == 'Bool' else '0'})")
print('(' + ' '.join(defs) + ')')
""",
}


def liar_option(tmp_path: Path, name: str) -> list[str]:
    path = tmp_path / f"{name}.py"
    path.write_text(f"import sys\nscript = sys.stdin.read()\n{LIARS[name]}\n")
    return ["--solver-cmd", f"{name}={shlex.quote(sys.executable)} {shlex.quote(str(path))}"]


def verify(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, Any]]:
    code = main(["verify", *argv])
    out, _ = capsys.readouterr()
    return code, json.loads(out)


def vcs(doc: dict[str, Any]) -> list[dict[str, Any]]:
    return [vc for k in doc["kernels"] for vc in k["vcs"]]


@pytest.mark.parametrize("spec", FALSE_SPECS)
def test_no_false_kernel_is_verified_with_a_liar_in_the_pair(
    spec: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--solver liar --confirm`: z3 joins as the second solver; the liar's proofs of false
    VCs meet z3's refutations and are reported as disagreements."""
    code, doc = verify(
        capsys, str(SPECS / spec), *liar_option(tmp_path, "liar"), "--solver", "liar", "--confirm", *FAST
    )
    assert [k["verdict"] for k in doc["kernels"]] != ["verified"] * len(doc["kernels"])
    assert code != 0
    disagreements = [vc for vc in vcs(doc) if vc["outcome"] == "error"]
    assert disagreements, "the liar's false proofs were not caught"
    for vc in disagreements:
        assert (
            "solvers disagree" in vc["reason"]
            and "liar proved" in vc["reason"]
            and "z3 refuted" in vc["reason"]
        )


@pytest.mark.parametrize("order", ["liar,z3", "z3,liar"])
def test_disagreement_is_an_error_naming_both_in_either_order(
    order: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = str(SPECS / "bug_off_by_one.cu")
    code, doc = verify(capsys, spec, *liar_option(tmp_path, "liar"), "--solver", order, "--confirm", *FAST)
    assert code == 2  # undecided: an error is never a proof, and not a refutation either
    [post] = [vc for vc in vcs(doc) if vc["kind"] == "postcondition"]
    assert post["outcome"] == "error"
    assert "liar proved the VC valid, z3 refuted it" in post["reason"]
    assert "z3's counterexample satisfies the VC" in post["reason"]
    others = [vc for vc in vcs(doc) if vc is not post]
    assert {vc["outcome"] for vc in others} == {"proved"}  # both agree on the valid VCs
    # proved by both, named in the order they answered
    assert all(sorted(vc["solver"].split("+")) == ["liar", "z3"] for vc in others)


def test_confirmed_proofs_name_both_solvers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, doc = verify(capsys, VALID_SPEC, "--solver", "z3", "--confirm", *FAST)
    assert code == 0
    assert {vc["solver"] for vc in vcs(doc)} <= {"z3+cvc5", "cvc5+z3"}


def test_with_one_solver_available_nothing_is_proved(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(portfolio_module, "PARTNERS", ())  # as if no other solver were installed
    code, doc = verify(capsys, VALID_SPEC, "--solver", "z3", "--confirm", *FAST)
    assert code == 2
    assert doc["kernels"][0]["verdict"] == "unknown"
    for vc in vcs(doc):
        assert vc["outcome"] == "unknown"
        assert "only z3 proved the VC" in vc["reason"] and "no second solver was available" in vc["reason"]


def test_without_confirm_the_liar_alone_is_believed_for_proofs_but_its_errors_are_not(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The documented trust model: one solver's proof counts without --confirm (so a liar can
    lie); an error line before its `unsat` makes the answer an error."""
    spec = str(SPECS / "bug_off_by_one.cu")
    code, doc = verify(capsys, spec, *liar_option(tmp_path, "errliar"), "--solver", "errliar", *FAST)
    assert code == 2
    for vc in vcs(doc):
        assert vc["outcome"] == "error" and "error before answering unsat" in vc["reason"]


def test_a_bogus_counterexample_is_an_error_not_a_bug_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, doc = verify(capsys, VALID_SPEC, *liar_option(tmp_path, "bogus"), "--solver", "bogus", *FAST)
    assert code == 2
    for vc in vcs(doc):
        assert vc["outcome"] == "error"
        assert "solver bogus's counterexample does not satisfy the VC" in vc["reason"]


def test_real_refutations_say_their_model_was_checked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, doc = verify(capsys, str(SPECS / "bug_off_by_one.cu"), "--solver", "z3", *FAST)
    assert code == 1
    [post] = [vc for vc in vcs(doc) if vc["outcome"] == "refuted"]
    assert post["model_check"] == "confirmed by z3"


def test_an_unchecked_refutation_says_so_in_the_text_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bare = fake_solver(tmp_path, "echo sat", "bare")
    spec = str(SPECS / "bug_assert_fails.cu")
    code = main(["verify", spec, "--solver", bare, "--no-cache", "--no-replay", "--jobs", "2"])
    out = capsys.readouterr().out
    assert code == 1
    assert f"note: {bare}'s model was not checked against the VC (the solver gave no model)" in out


def r(outcome: Outcome, name: str, check: str = "") -> SolverResult:
    return SolverResult(outcome, name, 0.1, model_check=check)


def test_combine_under_confirm() -> None:
    proved = {"z3": r(Outcome.PROVED, "z3"), "cvc5": r(Outcome.PROVED, "cvc5")}
    assert combine("z3,cvc5", proved, 0.2, confirm=True).outcome is Outcome.PROVED
    assert combine("z3,cvc5", proved, 0.2, confirm=True).solver == "z3+cvc5"
    same = {"z3": r(Outcome.PROVED, "z3"), "z3-bin": r(Outcome.PROVED, "z3-bin")}
    one_family = combine("z3,z3-bin", same, 0.2, confirm=True)
    assert one_family.outcome is Outcome.UNKNOWN and "one solver family" in one_family.message
    half = {"z3": r(Outcome.PROVED, "z3"), "cvc5": r(Outcome.TIMEOUT, "cvc5")}
    assert combine("z3,cvc5", half, 0.2, confirm=True).outcome is Outcome.UNKNOWN
    assert combine("z3,cvc5", half, 0.2).outcome is Outcome.PROVED  # without --confirm, one proof counts
    for pair in (["z3", "cvc5"], ["cvc5", "z3"]):
        got = {pair[0]: r(Outcome.PROVED, pair[0])} | {
            pair[1]: r(Outcome.REFUTED, pair[1], "confirmed by z3")
        }
        for confirm in (False, True):
            e = combine(",".join(pair), got, 0.2, confirm=confirm)
            assert e.outcome is Outcome.ERROR
            assert f"{pair[0]} proved the VC valid, {pair[1]} refuted it" in e.message


def test_confirm_members_adds_a_partner_of_another_family() -> None:
    assert confirm_members("z3") == ("z3", "cvc5")
    assert confirm_members("cvc5") == ("cvc5", "z3")
    assert confirm_members("z3,cvc5") == ("z3", "cvc5")
