"""Race checking is the default of `verify` and of `hoaregpu.verify` (issue 11):
`--assume-race-free` restores the old behaviour (and the banner), `--check-races` is still
accepted, `--show-invariants` prints the inferred log invariants, and a race that rests on a
function without a body is undecided, never found nor ruled out."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import hoaregpu
from hoaregpu.cli import main
from hoaregpu.report import RACE_BANNER

FAST = ("--no-cache", "--jobs", "2", "--timeout", "20")

RACY = """\
/*@ requires gridDim.x == 1; requires blockDim.x == 4;
    ensures a[0] == a[0];
*/
__global__ void racy(int *a) {
    int x = a[threadIdx.x + 1];
    a[threadIdx.x] = x + 1;
}
"""

FIXED = RACY.replace("    a[threadIdx.x] = x + 1;", "    __syncthreads();\n    a[threadIdx.x] = x + 1;")

STRIDED = """\
/*@ requires blockDim.x == 4;
*/
__global__ void strided(int *out, int n) {
    /*@ loop invariant i % 4 == threadIdx.x; */
    for (int i = threadIdx.x; i < n; i += 4) {
        out[i] = threadIdx.x;
    }
}
"""

BODYLESS = """\
__device__ void scramble(int *data);
/*@ requires blockDim.x == 4;
*/
__global__ void calls(int *data, int *out) {
    out[threadIdx.x] = data[threadIdx.x];
    scramble(data);
}
"""


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def verify_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(["verify", *argv, *FAST])
    return code, capsys.readouterr().out


def test_a_race_fails_by_default_and_passes_only_when_assumed_away(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "racy.cu", RACY)
    code, out = verify_cli(capsys, path)
    assert code == 1 and f"{path}:6:5: error: data race" in out
    assert RACE_BANNER not in out
    code, out = verify_cli(capsys, path, "--check-races")  # the old switch: the default
    assert code == 1 and "[data-race]" in out
    code, out = verify_cli(capsys, path, "--assume-race-free")
    assert code == 0 and "[data-race]" not in out
    assert out.splitlines()[0] == RACE_BANNER


def test_the_barrier_the_kernel_needs_makes_it_verify(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = verify_cli(capsys, write(tmp_path, "fixed.cu", FIXED), "--json")
    doc = json.loads(out)
    assert code == 0 and doc["assumes"] == "nothing"


def test_the_two_race_switches_exclude_each_other(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["verify", write(tmp_path, "racy.cu", RACY), "--check-races", "--assume-race-free"])
    assert code == 3  # an input error (README, exit codes)
    assert "not allowed with argument --check-races" in capsys.readouterr().err


def test_the_api_checks_races_by_default(tmp_path: Path) -> None:
    path = write(tmp_path, "racy.cu", RACY)
    checked = hoaregpu.verify(path, timeout=20, jobs=2, cache=False)
    assert checked.exit_code == 1 and not checked.verified
    assumed = hoaregpu.verify(path, timeout=20, jobs=2, cache=False, check_races=False)
    assert assumed.exit_code == 0 and assumed.verified


def inferred_invariants(capsys: pytest.CaptureFixture[str], path: str, loop_line: int) -> list[str]:
    """The `--show-invariants` lines of a file that verifies, each under its loop's line."""
    code, out = verify_cli(capsys, path, "--show-invariants")
    assert code == 0, out
    inferred = [ln for ln in out.splitlines() if ": inferred loop invariant: " in ln]
    assert inferred and all(ln.startswith(f"{path}:{loop_line}: ") for ln in inferred)
    return inferred


def test_show_invariants_prints_the_proved_inferred_clauses_per_loop(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "strided.cu", STRIDED)
    inferred = inferred_invariants(capsys, path, 5)
    assert any("write_cell(out)[0] % 4 == tid" in ln for ln in inferred)
    # Houdini dropped the false candidate "nothing written in this interval"
    assert not any("write_flag(out) <= 0" in ln for ln in inferred)
    code, out = verify_cli(capsys, path, "--show-invariants", "--assume-race-free")
    assert code == 0 and "no invariants inferred (--assume-race-free)" in out


def test_a_race_with_a_bodyless_function_is_undecided_never_found_or_ruled_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "calls.cu", BODYLESS)
    code, out = verify_cli(capsys, path)
    assert code != 0  # never verified
    assert "error: data race" not in out  # and not reported as a race found
    assert "a race with the accesses of scramble cannot be ruled out" in out
    assert "unknown" in out.splitlines()[-1]


SCALED = """\
/*@ requires gridDim.x == 1; requires blockDim.x == 8;
*/
__global__ void rows(int *p) {
    for (int i = 0; i < 100; i++) {
        p[i * blockDim.x + threadIdx.x] = threadIdx.x;
    }
}
"""


def test_a_counter_scaled_by_the_row_length_gets_its_cell_modulo_invariant(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # GPUVerify's test_candidate_global_invariant: 100 iterations (not unrolled), no invariant
    inferred = inferred_invariants(capsys, write(tmp_path, "rows.cu", SCALED), 4)
    assert any(ln.endswith("write_cell(p)[0] % ntid == tid % ntid") for ln in inferred)
    # two threads per cell: the candidate is not inductive, the race is found
    racy = write(tmp_path, "overlap.cu", SCALED.replace("+ threadIdx.x]", "+ threadIdx.x / 2]"))
    code, out = verify_cli(capsys, racy)
    assert code == 1 and f"{racy}:5:9: error: data race" in out
