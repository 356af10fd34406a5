"""A contradictory `requires` makes every VC hold vacuously: reported, never as verified."""

from __future__ import annotations

from pathlib import Path

import pytest

from hoaregpu.cli import main

CONTRADICTORY = """\
/*@ requires n > 0;
    requires n < 0;
    ensures a[0] == 42;
*/
__global__ void vac(int *a, int n) {
    a[0] = 1;
}
"""

THREADS_CLASH = """\
/*@ requires blockDim.x == 4;
    requires threadIdx.x < 2;
    ensures a[0] == 42;
*/
__global__ void vac2(int *a) {
    a[0] = 1;
}
"""

SATISFIABLE = """\
/*@ requires n > 0;
    ensures a[0] == n;
*/
__global__ void fine(int *a, int n) {
    a[0] = n;
}
"""


@pytest.mark.parametrize("src", [CONTRADICTORY, THREADS_CLASH], ids=["scalars", "threads"])
def test_contradictory_requires_is_reported_not_verified(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], src: str
) -> None:
    spec = tmp_path / "vac.cu"
    spec.write_text(src)
    code = main(["verify", str(spec), "--no-cache", "--no-replay", "--jobs", "1"])
    out = capsys.readouterr().out
    assert code == 2
    assert f"{spec}:1:5: warning: the precondition is contradictory" in out
    assert "[vacuous-precondition]" in out
    assert ": vacuous (" in out
    assert "verified" not in out.split("\n")[-1]


def test_satisfiable_requires_is_silent(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = tmp_path / "fine.cu"
    spec.write_text(SATISFIABLE)
    assert main(["verify", str(spec), "--no-cache", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "vacuous" not in out
    assert "1 kernel: 1 verified" in out
