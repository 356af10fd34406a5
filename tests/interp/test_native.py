"""The native differential executor (issue 8): the kernel's source compiled by the system
C/C++ compiler must end in the same final arrays as the lockstep interpreter.

Skips with a reason when no usable compiler is installed.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path
from typing import Any

import pytest

from hoaregpu.cli import main as cli_main
from hoaregpu.commands.run import select_kernel
from hoaregpu.grid import live_coords
from hoaregpu.interp import native, run_kernel
from hoaregpu.interp.native.build import Compiler
from hoaregpu.interp.native.execute import window_for
from hoaregpu.interp.values import Array

ROOT = Path(__file__).resolve().parents[2]
SPECS = sorted((ROOT / "specs").glob("*.cu"))
# Specs whose every run races or conflicts on purpose: nothing of theirs is comparable.
ALL_RACY = {
    "nonmonotonic_loop",
    "shared_guard_transformed",
    "write_conflict_disjunction",
    "write_conflict_wrong_winner",
}
# Planted bugs in device functions' contracts: every run reaches the `assume` of a contract
# that the function (or its call) breaks, and the interpreter stops there.
BROKEN_CONTRACT = {"bug_device_contract", "bug_device_call_precondition"}

# Specs the native executor does not build: its `main` passes each parameter as an array
# of integers (no structs) and its header knows no `__constant__`/`__device__` file-scope
# variables. The interpreter runs them (tests/test_cross_check.py).
NOT_NATIVE = {"struct_array", "bug_struct_field_mixup", "typedef_types", "constant_table"}
# ... nor atomics, CUDA's intrinsics (__mul24, warpSize, ...) and functions without a body
# (hoaregpu/frontend/calls.py): its header does not declare them
NOT_NATIVE |= {
    "atomic_distinct_cells",
    "atomic_shared_counter",
    "atomic_tickets",
    "bug_atomic_distinct_cells",
    "bug_atomic_lost_update",
    "declared_only_function",
    "bug_declared_only_function",
    "intrinsics_mul24_warpsize",
    "bug_mul24_operand_too_wide",
    "curand_coin_flips",
}
# cooperative groups: the emulation header has no <cooperative_groups.h> (nor grids)
NOT_NATIVE |= {
    "coop_grid_barrier",
    "bug_coop_grid_barrier_in_block_branch",
    "coop_thread_block_sync",
    "bug_coop_thread_block_divergence",
}
NOT_NATIVE |= {"struct_inherit", "bug_struct_inherit_field"}  # struct parameters


@pytest.fixture(scope="module")
def compiler() -> Compiler:
    try:
        return native.find_compiler()
    except native.NativeUnavailable as e:
        pytest.skip(f"native executor unavailable: {e}")


def program(path: Path, name: str | None = None) -> tuple[Any, native.NativeProgram]:
    kernel = select_kernel(str(path), name)
    return kernel, native.build(path, kernel.name)


def write(tmp_path: Path, text: str, name: str = "k.cu") -> Path:
    p = tmp_path / name
    p.write_text(text)
    return p


@pytest.mark.parametrize("path", SPECS, ids=lambda p: p.stem)
def test_every_spec_and_planted_bug_agrees(compiler: Any, path: Path) -> None:
    if path.stem in NOT_NATIVE:
        with pytest.raises(native.NativeBuildError):  # when it builds, compare it like the others
            program(path)
        return
    if any(d.floating for d in select_kernel(str(path), None).decls):
        pytest.skip("the native executor exchanges integer arrays only (a float kernel)")
    kernel, prog = program(path)
    result = native.native_test(kernel, prog, (1, 5), 5, 3)
    assert result.disagreements == [], native.render_comparison(result.disagreements[0])
    assert result.runs > 0
    if len(live_coords(kernel)) > 1:  # the harness runs one block along x: it says so
        assert result.verdicts[native.NOT_COMPARABLE] == result.runs
        assert all(r.startswith("several blocks") for r in result.reasons), result.reasons
    elif path.stem in BROKEN_CONTRACT:
        assert result.verdicts[native.NOT_COMPARABLE] == result.runs
        assert set(result.reasons) == {"input not admissible (requires or assume)"}, result.reasons
    elif path.stem in ALL_RACY:
        assert result.verdicts[native.NOT_COMPARABLE] == result.runs
        assert all(r.startswith("racy run") for r in result.reasons)
    else:
        assert result.verdicts[native.AGREE] > 0, result.reasons


def test_planted_bugs_are_covered() -> None:
    bugs = [p for p in SPECS if p.read_text().startswith("// expect: failed")]
    assert len(bugs) >= 5  # the parametrised test above runs each of them


SPLICE = """/*@ ensures out[threadIdx.x] == 1; */
__global__ void splice(int *out) {
    out[threadIdx.x] = 1;
    // set it to two \\
    out[threadIdx.x] = 2;
}
"""


def test_line_splice_in_comment(compiler: Any, tmp_path: Path) -> None:
    # C (phase 2) joins `\\`-newline before comments: the second assignment is comment text.
    # Our front end does the same since commit 9b1bcec, so both sides must say out = 1.
    kernel, prog = program(write(tmp_path, SPLICE))
    run = run_kernel(kernel, 3, {"out": [5, 5, 5, 5]})
    cmp = native.compare(kernel, prog, run)
    assert cmp.verdict == native.AGREE, native.render_comparison(cmp)
    assert cmp.native == {"out": [1, 1, 1, 5]}


def test_front_end_discrepancy_is_caught(compiler: Any, tmp_path: Path) -> None:
    # A front end that ignores the splice (the bug before 9b1bcec), simulated: our kernel
    # comes from text where the hidden line is live, the native side from the real file.
    _, prog = program(write(tmp_path, SPLICE))
    wrong, _ = program(write(tmp_path, SPLICE.replace("two \\\n", "two\n"), "wrong.cu"))
    run = run_kernel(wrong, 2, {"out": []})
    cmp = native.compare(wrong, prog, run)
    assert cmp.verdict == native.DISAGREE
    assert cmp.differ == ("out",) and cmp.interp == {"out": [2, 2]} and cmp.native == {"out": [1, 1]}
    assert "<-- differs" in native.render_comparison(cmp)


def test_parameter_mismatch_is_a_disagreement(compiler: Any, tmp_path: Path) -> None:
    src = "__global__ void k(int *a, int n) {\n    a[threadIdx.x] = n;\n}\n"
    _, prog = program(write(tmp_path, src))
    ours, _ = program(
        write(tmp_path, src.replace("int *a, int n", "int *a, int *n").replace("= n", "= n[0]"), "o.cu")
    )
    cmp = native.compare(ours, prog, run_kernel(ours, 1, {}))
    assert cmp.verdict == native.DISAGREE and "parameters differ" in cmp.reason


@pytest.mark.parametrize(
    ("body", "verdict", "reason"),
    [
        ("a[threadIdx.x] = a[0] / a[1];", native.AGREE, "both stop: trap"),  # division by 0
        ("a[threadIdx.x + 300000000] = 1;", native.NOT_COMPARABLE, "native run out-of-window"),
        ("long long v = 3037000500; a[threadIdx.x] = v * v;", native.NOT_COMPARABLE, "native run trap"),
        ("a[0] = threadIdx.x;", native.NOT_COMPARABLE, "racy run"),
        ("if (threadIdx.x < 1) { __syncthreads(); }", native.AGREE, "both stop: barrier-divergence"),
    ],
)
def test_runs_outside_the_model_are_classified(
    compiler: Any, tmp_path: Path, body: str, verdict: str, reason: str
) -> None:
    kernel, prog = program(write(tmp_path, f"__global__ void k(int *a) {{\n    {body}\n}}\n"))
    cmp = native.compare(kernel, prog, run_kernel(kernel, 2, {"a": [7, 0]}))
    assert (cmp.verdict, cmp.reason.startswith(reason)) == (verdict, True), cmp.reason


def test_uninitialised_locals_and_shared_start_at_zero(compiler: Any, tmp_path: Path) -> None:
    src = "__global__ void k(int *a) {\n    __shared__ int s[8];\n    int x;\n"
    src += "    a[threadIdx.x] = x + s[threadIdx.x];\n}\n"
    kernel, prog = program(write(tmp_path, src))
    cmp = native.compare(kernel, prog, run_kernel(kernel, 3, {"a": {"*": 4}}))
    assert cmp.verdict == native.AGREE and cmp.native == {"a": {"0": 0, "1": 0, "2": 0, "*": 4}}


def test_shift_of_negative_values(compiler: Any, tmp_path: Path) -> None:
    kernel, prog = program(write(tmp_path, "__global__ void k(int *a) {\n    a[threadIdx.x] = -3 >> 1;\n}\n"))
    cmp = native.compare(kernel, prog, run_kernel(kernel, 1, {}))
    assert cmp.native == {"a": [-2]}  # C: arithmetic shift; the VC encoder floors too
    assert cmp.verdict == native.AGREE, native.render_comparison(cmp)


def test_window_covers_inputs() -> None:
    assert window_for({"a": [1] * 5000, "n": -7}, 4) == 4 * 5000 + 64
    assert window_for({"a": {"9000": 1, "*": 2}}, 2) == 4 * 9001 + 64
    assert window_for({}, 1) == native.execute.MIN_WINDOW


def test_cli_test_native(compiler: Any, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["test", str(ROOT / "specs" / "old_reverse.cu"), "--native", "--trials", "6"]) == 0
    out = capsys.readouterr().out
    assert "native (" in out and "6 runs, 6 agree, 0 not comparable, 0 disagree" in out


def test_cli_test_native_disagreement(
    compiler: Any, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def lying(prog: Any, threads: int, inputs: Any, timeout: float = 0) -> native.NativeRun:
        return native.NativeRun("ok", "", {"a": Array({(0,): 99})})

    monkeypatch.setattr(native.execute, "run_native", lying)
    assert cli_main(["test", str(ROOT / "specs" / "old_reverse.cu"), "--native", "--trials", "3"]) == 1
    out = capsys.readouterr().out
    assert "DISAGREES with the interpreter" in out and "native:      a = [99]" in out


def test_differential_slice(compiler: Any, tmp_path: Path) -> None:
    """A 20-case slice of bench/differential.py (two kernels, verify included)."""
    spec = importlib.util.spec_from_file_location("differential", ROOT / "bench" / "differential.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["differential"] = mod
    spec.loader.exec_module(mod)
    args = argparse.Namespace(
        kernels=2,
        inputs=8,
        seed=11,
        timeout=5.0,
        no_verify=False,
        no_shifts=True,
        out=tmp_path / "repro",
        json=tmp_path / "d.json",
        progress=False,
    )
    c = mod.run(args)
    assert c.cases == 20 and c.kernels == 2
    assert c.disagreements == []
    assert c.verdicts[native.AGREE] > 0
    assert sum(v for k, v in c.verify.items() if k.startswith("wrong contract") and k.endswith("failed")) == 2
    assert (tmp_path / "d.md").is_file()
