"""`hoaregpu.run`, `hoaregpu.test`, `hoaregpu.prove`, `hoaregpu.check` as users call them,
and the command line as a thin layer over them (same text, same exit codes)."""

from __future__ import annotations

import dataclasses
import shlex
from pathlib import Path

import pytest

import hoaregpu
from hoaregpu.cli import main
from hoaregpu.errors import ConfigError
from hoaregpu.interp.values import InputError

SPECS = Path(__file__).resolve().parent.parent / "specs"
BUG = SPECS / "bug_off_by_one.cu"  # postcondition (line 6) refuted: the loop stops early
FAILING_INPUT = {"n": 1, "a": [1], "b": [2], "c": [0]}


def test_run_finds_the_planted_bug_and_prints_what_the_cli_prints(capsys: pytest.CaptureFixture[str]) -> None:
    execution = hoaregpu.run(BUG, inputs=FAILING_INPUT)
    assert not execution.ok and execution.exit_code == 1 and execution.status == "failed"
    (v,) = execution.failures
    assert (v.kind, v.line, Path(v.file or "").name, v.failure) == ("postcondition", 6, BUG.name, True)
    assert execution.threads == 4 and execution.inputs["n"] == 1
    assert execution.to_json()["status"] == "failed"
    with pytest.raises(dataclasses.FrozenInstanceError):
        execution.status = "ok"  # type: ignore[misc]
    assert main(["run", str(BUG), "--input", '{"n":1,"a":[1],"b":[2],"c":[0]}']) == 1
    assert capsys.readouterr().out.strip() == execution.text.strip()


def test_run_passes_where_the_bug_does_not_show_and_rejects_inadmissible_input() -> None:
    fine = hoaregpu.run(BUG, inputs={"n": 0, "a": [], "b": [], "c": []})
    assert fine.ok and fine.status == "ok" and fine.violations == ()
    symbolic = SPECS / "vector_add_symbolic.cu"  # requires n >= 0
    inadmissible = hoaregpu.run(symbolic, threads=2, inputs={"n": -1, "a": [], "b": [], "c": []})
    assert inadmissible.status == "inadmissible" and inadmissible.exit_code == 3
    with pytest.raises(ConfigError, match="contradicts"):
        hoaregpu.run(BUG, threads=2, inputs=FAILING_INPUT)  # `requires blockDim.x == 4`
    with pytest.raises(InputError):
        hoaregpu.run(BUG, inputs={"n": "many"})
    with pytest.raises(ConfigError, match="no such file"):
        hoaregpu.run(SPECS / "no_such.cu")


def test_test_shrinks_a_counterexample_that_run_reproduces(capsys: pytest.CaptureFixture[str]) -> None:
    testing = hoaregpu.test(BUG, trials=20)
    assert not testing.ok and testing.exit_code == 1
    ce = testing.counterexample
    assert ce is not None and [v.kind for v in ce.failures] == ["postcondition"]
    assert testing.reproduce is not None and testing.reproduce.startswith("hoaregpu run ")
    argv = shlex.split(testing.reproduce)[1:]
    assert main(argv) == 1  # the printed command reproduces the failure
    capsys.readouterr()
    again = hoaregpu.run(BUG, inputs=ce.inputs, seed=ce.seed)
    assert [v.kind for v in again.failures] == ["postcondition"]
    assert main(["test", str(BUG), "--trials", "20"]) == 1
    assert capsys.readouterr().out.strip() == testing.text.strip()


def test_test_of_a_correct_kernel() -> None:
    testing = hoaregpu.test(SPECS / "vector_add_symbolic.cu", threads=(1, 4), trials=15)
    assert testing.ok and testing.counterexample is None and testing.reproduce is None
    assert testing.passed > 0 and testing.passed + testing.skipped <= testing.trials
    assert testing.text.endswith(f"{testing.passed} runs, no violation")
    with pytest.raises(ConfigError):
        hoaregpu.test(BUG, trials=0)


def test_prove_writes_a_proof_that_check_accepts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "assert_assume.proof"
    proving = hoaregpu.prove(SPECS / "assert_assume.cu", output=out, jobs=2)
    assert proving.proved and proving.exit_code == 0
    (k,) = proving.kernels
    assert k.proved and k.output == str(out) and k.side_conditions > 0 and k.problems == ()
    assert out.read_text() == k.text
    checking = hoaregpu.check(out, replay=True, jobs=2)
    (c,) = checking.proofs
    assert c.ok and c.kernel == "assert_assume" and c.summary.endswith("trivial)")
    # --replay also flags a side condition more than 2x slower, which a loaded machine can
    # produce (then `checking` exits 2); any other change for the worse is a real regression
    slower = [ch for ch in c.changes if ch.regression and "slower" in ch.text]
    assert [ch for ch in c.changes if ch.regression] == slower
    assert checking.regressed == bool(slower) and checking.exit_code == (2 if slower else 0)
    assert main(["check", str(out), "-j", "2"]) == 0
    assert capsys.readouterr().out.strip() == hoaregpu.check(out, jobs=2).report().strip()


def test_prove_refuses_a_buggy_kernel_and_check_a_tampered_proof(tmp_path: Path) -> None:
    out = tmp_path / "bug.proof"
    proving = hoaregpu.prove(BUG, output=out, jobs=2)
    assert not proving.proved and proving.exit_code == 1
    (k,) = proving.kernels
    assert not k.proved and k.output is None and not out.exists()
    assert "refuted" in {p.kind for p in k.problems}
    assert "not proved, no proof written" in proving.report()
    broken = tmp_path / "broken.proof"
    broken.write_text("this is not a derivation\n")
    checking = hoaregpu.check([broken], jobs=1)
    assert not checking.ok and checking.exit_code == 3
    assert checking.proofs[0].problems[0].kind == "input"
    with pytest.raises(ConfigError):
        hoaregpu.check(tmp_path / "missing.proof")
    with pytest.raises(ConfigError):
        hoaregpu.prove(BUG, solver="no-such-solver")
