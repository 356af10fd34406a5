"""Derivations of kernels on a fixed grid (proof/kernel.FlatLaunch): the threads of every
block are the paper's one `tid` range, each coordinate a function of `tid`; an open size,
and the per-block `e @ t`, are refused clearly."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pipeline_kit import lower

import hoaregpu
from hoaregpu.api.proving import LOCKSTEP_NOTE
from hoaregpu.errors import UnsupportedError
from hoaregpu.proof.kernel import kernel_info
from hoaregpu.proof.syntax import show_prog

SPECS = Path(__file__).resolve().parents[2] / "specs"


def test_a_2d_grid_is_one_tid_range_in_mixed_radix() -> None:
    k = kernel_info(
        "k.cu",
        lower(
            "/*@ requires blockDim.x == 2 && blockDim.y == 3 && gridDim.x == 4; */\n"
            "__global__ void k(int *a) {\n"
            "    a[(blockIdx.x * 3 + threadIdx.y) * 2 + threadIdx.x] = gridDim.x * blockDim.y;\n"
            "}\n"
        ),
    )
    assert k.threads == 24  # 2 x 3 threads in each of 4 blocks
    assert show_prog(k.program) == "a[(tid / 6 * 3 + tid / 2 % 3) * 2 + tid % 2] := 4 * 3"


def test_a_grid_kernel_is_proved_and_its_twin_refuted(tmp_path: Path) -> None:
    out = tmp_path / "t.proof"
    proving = hoaregpu.prove(SPECS / "grid_transpose_2d.cu", output=out, jobs=2, timeout=60)
    assert proving.proved, proving.report()
    assert LOCKSTEP_NOTE in proving.report()
    assert "threads: 16" in out.read_text()
    assert hoaregpu.check(out, jobs=2, timeout=60).ok
    bug = hoaregpu.prove(SPECS / "bug_grid_transpose_2d.cu", write=False, jobs=2, timeout=60)
    assert bug.exit_code == 1 and not bug.kernels[0].proved
    assert LOCKSTEP_NOTE not in bug.report()


def test_a_proof_is_of_lockstep_and_says_so(tmp_path: Path) -> None:
    """The missing barrier of the shared transpose is a race, not a wrong lockstep result:
    the derivation exists, and the report says that it holds on a GPU only without races."""
    proving = hoaregpu.prove(SPECS / "showcase" / "bug_transpose_shared.cu", write=False, jobs=2, timeout=60)
    assert proving.proved
    assert proving.report().splitlines()[-1] == LOCKSTEP_NOTE
    assert "race-free" in LOCKSTEP_NOTE and "hoaregpu verify" in LOCKSTEP_NOTE


@pytest.mark.parametrize(
    ("source", "message"),
    [
        (
            "/*@ requires blockDim.x == 2; */ __global__ void k(int *a) { a[blockIdx.x] = 1; }",
            "gridDim.x is not fixed",
        ),
        (
            "/*@ requires blockDim.x == 2 && gridDim.x == 2;\n"
            "    ensures a[threadIdx.x] == a[0] @ 0; */\n"
            "__global__ void k(int *a) { a[blockIdx.x * 2 + threadIdx.x] = 1; }",
            "'e @ t' in a kernel of several blocks",
        ),
    ],
)
def test_what_a_grid_derivation_does_not_cover_is_refused(source: str, message: str) -> None:
    with pytest.raises(UnsupportedError, match=re.escape(message)):
        kernel_info("k.cu", lower(source))
