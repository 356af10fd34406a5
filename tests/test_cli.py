"""`hoaregpu verify` end to end through `hoaregpu.cli.main`: exit codes, messages, JSON."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from hoaregpu.cli import main
from hoaregpu.report import RACE_BANNER

GOOD = """\
/*@ ensures \\forall int j; 0 <= j < blockDim.x ==> a[j] == j + 1; */
__global__ void good(int *a) {
    a[threadIdx.x] = threadIdx.x + 1;
}
"""

BAD = """\
/*@ ensures a[0] == 0;
*/
__global__ void bad(int *a) {
    a[0] = threadIdx.x;
}
"""

SYNTAX = """\
__global__ void broken(int *a) {
    a[0] = ;
}
"""

# True (Fermat, n = 3) but far beyond a solver's nonlinear reasoning.
NONLINEAR = """\
/*@ requires x > 0 && y > 0 && z > 0;
    ensures x * x * x + y * y * y != z * z * z;
*/
__global__ void hard(int x, int y, int z) { }
"""

FAST = ["--jobs", "2", "--timeout", "10", "--no-cache"]


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["verify", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_verified_spec_exits_0_and_the_race_banner_only_with_assume_race_free(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, write(tmp_path, "good.cu", GOOD), *FAST)
    assert code == 0, out + err
    assert RACE_BANNER not in out and "assume" not in out  # races are checked by default
    code, out, err = run(capsys, write(tmp_path, "good.cu", GOOD), *FAST, "--assume-race-free")
    assert code == 0, out + err
    assert RACE_BANNER in out
    assert "race" in RACE_BANNER
    assert re.search(r"kernel good \(.*good\.cu\): verified", out)
    assert "error:" not in out + err


def test_refuted_spec_exits_1_with_position_kind_and_counterexample(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "bad.cu", BAD)
    code, out, _ = run(capsys, path, *FAST)
    assert code == 1
    assert RACE_BANNER not in out
    lines = out.splitlines()
    # The ensures clause is on line 1, column 5.
    assert f"{path}:1:5: error: postcondition might not hold [postcondition]" in lines
    cex = [ln for ln in lines if ln.startswith("note: counterexample:")]
    assert cex and "blockDim.x = " in cex[0]
    # The only way to fail is two threads racing with thread >= 1 winning.
    n = int(re.search(r"blockDim\.x = (\d+)", cex[0]).group(1))  # type: ignore[union-attr]
    assert n >= 2
    assert re.search(r"kernel bad \(.*\): failed", out)


def test_syntax_error_exits_3_with_position_and_no_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "syntax.cu", SYNTAX)
    code, out, err = run(capsys, path, *FAST)
    assert code == 3
    assert re.search(rf"{re.escape(path)}:2:\d+: error: ", out + err)
    assert "Traceback" not in out + err


def test_input_error_wins_over_other_verdicts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(tmp_path, "a_good.cu", GOOD)
    write(tmp_path, "b_syntax.cu", SYNTAX)
    code, out, _ = run(capsys, str(tmp_path), *FAST)
    assert code == 3
    assert re.search(r"kernel good \(.*\): verified", out)  # the good file is still checked


def test_refuted_and_verified_files_together_exit_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, write(tmp_path, "good.cu", GOOD), write(tmp_path, "bad.cu", BAD), *FAST)
    assert code == 1
    assert re.search(r"kernel good .*: verified", out) and re.search(r"kernel bad .*: failed", out)


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--solver", "no-such-solver"], "unknown solver"),
        (["--threads", "0"], "--threads"),
        (["--threads", "-2"], "--threads"),
    ],
)
def test_bad_options_exit_3(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], message: str
) -> None:
    code, out, err = run(capsys, write(tmp_path, "good.cu", GOOD), *FAST, *extra)
    assert code == 3
    assert message in err
    assert "Traceback" not in out + err


def test_missing_file_exits_3(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = str(tmp_path / "nope.cu")
    code, out, err = run(capsys, missing, *FAST)
    assert code == 3
    assert "nope.cu" in out + err and "Traceback" not in out + err


def test_usage_error_exits_3(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify"]) == 3
    assert main(["no-such-command"]) == 3
    capsys.readouterr()


def test_json_output_is_valid_and_has_the_verdicts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good, bad = write(tmp_path, "good.cu", GOOD), write(tmp_path, "bad.cu", BAD)
    code, out, _ = run(capsys, good, bad, "--json", *FAST)
    assert code == 1
    doc = json.loads(out)
    assert doc["exit_code"] == 1
    assert doc["assumes"] == "nothing"  # races are checked by default
    kernels = {k["name"]: k for k in doc["kernels"]}
    assert kernels["good"]["verdict"] == "verified" and kernels["bad"]["verdict"] == "failed"
    # all threads write a[0] with their own index: the postcondition fails, and so does the
    # race check of the write (different values)
    vc, race = kernels["bad"]["vcs"]
    assert (vc["kind"], vc["line"], vc["col"], vc["outcome"]) == ("postcondition", 1, 5, "refuted")
    assert (race["kind"], race["line"], race["outcome"]) == ("data-race", 4, "refuted")
    assert vc["file"] == bad
    assert all(v["outcome"] == "proved" for v in kernels["good"]["vcs"])


def test_json_output_for_a_syntax_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "syntax.cu", SYNTAX)
    code, out, _ = run(capsys, path, "--json", *FAST)
    assert code == 3
    doc = json.loads(out)
    assert doc["exit_code"] == 3
    (e,) = doc["errors"]
    assert (e["file"], e["line"]) == (path, 2)


def test_show_core_prints_the_core_program(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = """\
__global__ void k(int *a) {
    for (int i = 0; i < 2; i++) { a[i] += 1; }
    while (a[0] > 0) { a[0] = a[0] - 1; }
}
"""
    # every thread updates a[0] and a[1] (a race, not what this test is about)
    code, out, _ = run(capsys, write(tmp_path, "core.cu", src), "--show-core", "--assume-race-free", *FAST)
    assert code == 0
    assert "kernel k(a)" in out
    # a loop without invariant with a constant trip count is unrolled (hoaregpu/unroll.py),
    # each copy with the counter's value in its expressions
    assert "while i < 2" not in out
    assert "a[0] := a[0] + 1" in out and "a[1] := a[1] + 1" in out and "a[i]" not in out
    # The non-monotonic loop after the §4.1 transform.
    assert "z.1 := a[0] > 0" in out and "while z.1" in out
    code, out, _ = run(capsys, write(tmp_path, "core.cu", src), "--show-core", "--unroll", "0", *FAST)
    assert "while i < 2" in out  # for lowered to while
    assert "a[i] := a[i] + 1" in out  # compound assignment lowered


def test_threads_option_fixes_the_count(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, write(tmp_path, "bad.cu", BAD), "--threads", "1", *FAST)
    assert code == 0, out  # with one thread there is no race: a[0] == 0


def test_undecided_vc_exits_2_and_is_not_verified(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, "hard.cu", NONLINEAR)
    code, out, _ = run(capsys, path, "--jobs", "1", "--timeout", "1", "--no-cache")
    assert code == 2, out
    assert re.search(r"kernel hard \(.*\): unknown", out)
    assert "verified" not in out.replace("unverified", "")
    assert re.search(rf"{re.escape(path)}:2:5: warning: .*not decided.*\[postcondition\]", out)


def test_fake_solver_answering_unknown_gives_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fake = f"fake={sys.executable} -c \"import sys; sys.stdin.read(); print('unknown')\""
    path = write(tmp_path, "good.cu", GOOD)
    code, out, err = run(capsys, path, "--solver-cmd", fake, "--solver", "fake", "--json", *FAST)
    assert code == 2, out + err
    doc = json.loads(out)
    (k,) = doc["kernels"]
    assert k["verdict"] == "unknown"
    assert {v["outcome"] for v in k["vcs"]} == {"unknown"}


def test_internal_error_is_reported_as_such_with_exit_4(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A bug (here: a lowering stage that crashes) is not shown as a bare traceback."""
    import hoaregpu.driver

    def crash(path: str, clang: object = None) -> None:
        raise ZeroDivisionError("boom")

    monkeypatch.delenv("HOAREGPU_DEBUG", raising=False)
    monkeypatch.setattr(hoaregpu.driver, "load_kernels", crash)
    code = main(["verify", "specs/at_thread.cu", "--no-cache"])
    err = capsys.readouterr().err
    assert code == 4
    assert "internal error: ZeroDivisionError: boom" in err
    assert "Traceback" not in err


def test_help_does_not_load_the_pipeline() -> None:
    """Start-up (issue 14): building the parser imports no solver, front end or plotting
    library; each command imports them when it runs. Timing is in bench/, not here."""
    import json
    import subprocess
    import sys

    code = "import json, sys, hoaregpu.cli as c; c.build_parser(); print(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    loaded = json.loads(out)
    heavy = ("pysmt", "z3", "cvc5", "clang", "pyparsing", "matplotlib", "rich", "pygls", "hoaregpu.driver")
    assert not [m for m in loaded if m.startswith(heavy)], loaded
    assert "hoaregpu.frontend" not in loaded and "hoaregpu.interp" not in loaded
    # nor the term and launch types (their dataclasses cost ~0.1 s), nor the solver layer
    assert not {"hoaregpu.terms", "hoaregpu.launch", "hoaregpu.solvers"} & set(loaded), loaded


def test_race_kinds_of_the_run_command_match_the_interpreter() -> None:
    from hoaregpu.commands.run import RACE_KINDS
    from hoaregpu.interp.results import RACE, WRITE_CONFLICT

    assert frozenset({RACE, WRITE_CONFLICT}) == RACE_KINDS
