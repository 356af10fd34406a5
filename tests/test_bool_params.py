"""A `bool` parameter holds 0 or 1 (C), in the VC generator's entry facts, the proof
checker's root precondition, the interpreter's input validation and random inputs."""

from __future__ import annotations

from pathlib import Path

import pytest

from hoaregpu.cli import main
from hoaregpu.proof.checker import check_proof
from hoaregpu.proof.derivation import parse_proof, render
from hoaregpu.proof.generate import derive_kernel
from hoaregpu.proof.kernel import load_kernels
from hoaregpu.solvers import SolverOptions

VERIFIED, FAILED, INPUT_ERROR = 0, 1, 3

SCALAR = """\
/*@ ensures out[threadIdx.x] == 0 || out[threadIdx.x] == 1; */
__global__ void k(int *out, bool p) {
    out[threadIdx.x] = p;
}
"""

# An assigned bool parameter is a per-thread copy (a local); its start is still 0 or 1.
ASSIGNED = """\
/*@ ensures out[threadIdx.x] == 1 - \\old(p); */
__global__ void k(int *out, bool p) {
    p = !p;
    out[threadIdx.x] = p;
}
"""

ARRAY = """\
/*@ ensures out[threadIdx.x] <= 1; */
__global__ void k(int *out, bool *flags) {
    out[threadIdx.x] = flags[threadIdx.x];
}
"""

# The range is a fact, not a licence: a contract that is false for 0 or 1 is still refuted.
WRONG = """\
/*@ ensures out[threadIdx.x] == 1; */
__global__ void k(int *out, bool p) {
    out[threadIdx.x] = p;
}
"""

CASES = {"scalar": SCALAR, "assigned": ASSIGNED, "array": ARRAY}


def _write(tmp_path: Path, src: str) -> str:
    path = tmp_path / "k.cu"
    path.write_text(src, encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("name", CASES)
def test_verified_with_the_range_fact(tmp_path: Path, name: str) -> None:
    assert main(["verify", _write(tmp_path, CASES[name]), "--no-cache", "--no-replay"]) == VERIFIED


def test_range_fact_proves_nothing_false(tmp_path: Path) -> None:
    assert main(["verify", _write(tmp_path, WRONG), "--no-cache", "--no-replay"]) == FAILED


@pytest.mark.parametrize("name", ["scalar", "assigned"])
def test_prove_and_check_agree(tmp_path: Path, name: str) -> None:
    (info,) = load_kernels(_write(tmp_path, CASES[name]))
    proof = parse_proof(render(derive_kernel(info)), "<p>")
    assert check_proof(proof, "z3", SolverOptions(timeout=10)).exit_code == 0


@pytest.mark.parametrize(
    ("name", "inputs"),
    [
        ("scalar", '{"p": 2}'),
        ("scalar", '{"p": -1}'),
        ("assigned", '{"p": 2}'),
        ("array", '{"flags": [0, 3]}'),
    ],
)
def test_run_rejects_out_of_range_input(
    tmp_path: Path, name: str, inputs: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["run", _write(tmp_path, CASES[name]), "--threads", "2", "--input", inputs])
    assert code == INPUT_ERROR
    assert "bool" in capsys.readouterr().err


@pytest.mark.parametrize("name", CASES)
def test_random_inputs_respect_the_range(tmp_path: Path, name: str) -> None:
    """`hoaregpu test` samples only 0 and 1, so a correct kernel shows no violation."""
    assert main(["test", _write(tmp_path, CASES[name]), "--threads", "1..3", "--trials", "30"]) == 0
