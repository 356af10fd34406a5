"""`hoaregpu run` and `hoaregpu test` end to end through `cli.main`: output and exit codes."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

from hoaregpu.cli import main

ROOT = Path(__file__).resolve().parents[2]
SPECS = ROOT / "specs"
DATA = Path(__file__).resolve().parent / "data"


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_run_with_input_shows_violation(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(
        capsys, "run", str(SPECS / "bug_off_by_one.cu"), "--input", '{"n": 1, "a": [2], "b": [3]}'
    )
    assert code == 1
    assert "FAILED — 4 threads" in out  # the fixed blockDim.x
    assert re.search(
        r"bug_off_by_one.cu:\d+:\d+: error: postcondition \(ensures\) does not hold \[postcondition\]", out
    )
    assert "final shared state:" in out and "c = {* = 0}" in out


def test_run_correct_kernel_and_input_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    inputs = tmp_path / "in.json"
    inputs.write_text('{"n": 3, "a": [1, 2, 3], "b": [10, 20, 30]}')
    code, out, _ = cli(
        capsys, "run", str(SPECS / "vector_add_symbolic.cu"), "--threads", "2", "--input", f"@{inputs}"
    )
    assert code == 0, out
    assert "ok — 2 threads, lockstep" in out
    assert "c = [11, 22, 33]" in out


def test_run_sampled_inputs_and_interleaving(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(SPECS / "vector_add_symbolic.cu")
    code, out, _ = cli(capsys, "run", path, "--threads", "3", "--seed", "4", "--semantics", "interleave")
    assert code == 0 and "interleave" in out
    code, out, _ = cli(capsys, "run", path, "--threads", "3", "--json")
    assert code == 0 and json.loads(out)["status"] == "ok"


def test_run_races_are_warnings_unless_asked(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(SPECS / "write_conflict_disjunction.cu")
    code, out, _ = cli(capsys, "run", path)
    assert code == 0
    assert "warning: write conflict on winner[0]" in out
    code, out, _ = cli(capsys, "run", path, "--fail-on-race")
    assert code == 1 and "error: write conflict on winner[0]" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--threads", "3"], "contradicts 'requires blockDim.x == 4'"),
        (["--input", "{"], "--input is not valid JSON"),
        (["--input", "[1]"], "must be a JSON object"),
        (["--input", '{"nope": 1}'], "no parameter named 'nope'"),
        (["--input", '{"n": 1, "a": [true]}'], "must be an integer"),
        (["--kernel", "other"], "no kernel named 'other'"),
        (["--input", "@/nonexistent.json"], "cannot read --input file"),
    ],
)
def test_run_input_errors(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    code, _, err = cli(capsys, "run", str(SPECS / "bug_off_by_one.cu"), *argv)
    assert code == 3
    assert message in err


def test_run_needs_threads_and_admissible_input(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = cli(capsys, "run", str(SPECS / "vector_add_symbolic.cu"))
    assert code == 3 and "give --threads N" in err
    code, out, _ = cli(
        capsys, "run", str(SPECS / "vector_add_symbolic.cu"), "--threads", "2", "--input", '{"n": -1}'
    )
    assert code == 3 and "input not admissible" in out
    code, _, _ = cli(capsys, "run", "no/such/file.cu", "--threads", "2")
    assert code == 3


def test_test_finds_shrinks_and_reproduces(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(SPECS / "bug_off_by_one.cu")
    code, out, _ = cli(capsys, "test", path, "--trials", "30", "--seed", "3")
    assert code == 1
    assert "counterexample" in out and "[postcondition]" in out
    line = out.split("reproduce with:\n", 1)[1].strip().splitlines()[0]
    argv = shlex.split(line)
    assert argv[:3] == ["hoaregpu", "run", path]
    code, again, _ = cli(capsys, *argv[1:])
    assert code == 1 and "postcondition (ensures) does not hold" in again


def test_test_passes_correct_kernel(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(
        capsys, "test", str(SPECS / "vector_add_symbolic.cu"), "--threads", "1..4", "--trials", "25"
    )
    assert code == 0, out
    assert out.strip().endswith("25 runs, no violation")


def test_test_races_are_warnings_by_default(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(SPECS / "write_conflict_disjunction.cu")
    code, out, _ = cli(capsys, "test", path, "--trials", "10")
    assert code == 0 and "(not counted as a failure)" in out
    code, out, _ = cli(capsys, "test", path, "--trials", "10", "--fail-on-race")
    assert code == 1 and "reproduce with:" in out


def test_test_uses_solver_inputs_for_hard_requires(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "test", str(DATA / "hard_requires.cu"), "--threads", "1..2", "--trials", "5")
    assert code == 1, out
    assert '"n":12345' in out and '"m":4117' in out


def test_test_bad_options(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(SPECS / "vector_add_symbolic.cu")
    assert cli(capsys, "test", path, "--threads", "4..2")[0] == 3
    assert cli(capsys, "test", path, "--threads", "x")[0] == 3
    assert cli(capsys, "test", path, "--trials", "0")[0] == 3


def test_test_nothing_admissible(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    spec = tmp_path / "never.cu"
    spec.write_text(
        "/*@ requires n > 0 && n < 0;\n    ensures n == 0;\n*/\n__global__ void never(int n) {\n}\n"
    )
    code, out, _ = cli(capsys, "test", str(spec), "--trials", "3")
    assert code == 2 and "no admissible input found" in out


def test_run_and_test_take_two_blocks_of_a_kernel_that_reads_no_block_index(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """As `verify`'s race checks do (`races.with_blocks`): with the grid left open, such a
    kernel's blocks all access the same cells, so `a[threadIdx.x] += 1` races between two of
    them; a launch of one block (`--gridDim 1`) has no race."""
    path = tmp_path / "inc.cu"
    path.write_text("__global__ void inc(int *a) {\n    a[threadIdx.x] += 1;\n}\n")
    code, out, _ = cli(capsys, "run", str(path), "--blockDim", "4", "--fail-on-race")
    assert code == 1 and "FAILED — 8 threads" in out
    assert re.search(r"data race on a\[\d\]: .* by thread \d and (read|written) by thread \d", out)
    code, out, _ = cli(capsys, "run", str(path), "--blockDim", "4")
    assert code == 0 and "ok, with warnings — 8 threads" in out  # a race is a warning by default
    code, out, _ = cli(capsys, "run", str(path), "--blockDim", "4", "--gridDim", "1", "--fail-on-race")
    assert code == 0 and "ok — 4 threads" in out and "race" not in out
    code, out, _ = cli(capsys, "test", str(path), "--blockDim", "4", "--fail-on-race", "--trials", "5")
    assert code == 1 and "data race" in out
