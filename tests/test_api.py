"""The Python API as users call it: `hoaregpu.verify(...)` and its typed results."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import hoaregpu
from hoaregpu.errors import ConfigError
from hoaregpu.solvers import Outcome

SPECS = Path(__file__).resolve().parent.parent / "specs"


def test_verified_kernel() -> None:
    result = hoaregpu.verify(SPECS / "c_division.cu", cache=False)
    assert result.verified and result.exit_code == 0 and not result.errors
    (k,) = result.kernels
    assert k.verdict == "verified" and k.what == f"kernel {k.name}"
    assert k.vcs and all(vc.outcome is Outcome.PROVED for vc in k.vcs)
    assert result.failures == ()


def test_refuted_kernel_has_its_counterexample() -> None:
    result = hoaregpu.verify(str(SPECS / "bug_off_by_one.cu"), cache=False)
    assert not result.verified and result.exit_code == 1
    (vc,) = result.failures
    assert (vc.kind, vc.line, vc.outcome) == ("postcondition", 6, Outcome.REFUTED)
    assert vc.counterexample and vc.counterexample[0].startswith("counterexample:")
    assert vc.confirmed_by_execution is True
    assert json.loads(result.to_json())["exit_code"] == 1
    assert result.to_sarif()["runs"][0]["results"][0]["ruleId"] == "postcondition"


def test_launch_sizes_as_tuples() -> None:
    grid = SPECS / "grid_vector_add.cu"
    result = hoaregpu.verify([grid], block_dim=(4,), grid_dim=(2,), cache=False, replay=False)
    assert result.verified
    assert hoaregpu.fixed_launch(block_dim=(16, 16)).block == (16, 16, 1)
    assert hoaregpu.fixed_launch(threads=8).block == (8, None, None)
    with pytest.raises(ConfigError, match="contradicts"):
        hoaregpu.fixed_launch(block_dim=(4,), threads=8)
    with pytest.raises(ConfigError):
        hoaregpu.fixed_launch(block_dim=(0,))


def test_input_errors_are_results_not_exceptions(tmp_path: Path) -> None:
    bad = tmp_path / "bad.cu"
    bad.write_text("__global__ void k(int *a) {\n  a[0] = ;\n}\n")
    result = hoaregpu.verify(bad, cache=False)
    assert result.exit_code == 3 and not result.verified
    (err,) = result.errors
    assert err.span.line == 2


def test_bad_arguments_raise() -> None:
    with pytest.raises(ConfigError):
        hoaregpu.verify(SPECS / "c_division.cu", solver="no-such-solver")
    with pytest.raises(ConfigError):
        hoaregpu.verify(SPECS / "c_division.cu", unroll=-1)


def test_undecided_is_not_verified(tmp_path: Path) -> None:
    fake = tmp_path / "fake.sh"
    fake.write_text("#!/bin/sh\ncat > /dev/null\necho unknown\n")
    fake.chmod(0o755)
    result = hoaregpu.verify(SPECS / "c_division.cu", solver="fake", solver_cmd=[f"fake={fake}"], cache=False)
    assert not result.verified and result.exit_code == 2
    assert {vc.outcome for vc in result.vcs} == {Outcome.UNKNOWN}
    assert result.failures == result.vcs


def test_on_prepared_sees_kernels_before_solving() -> None:
    seen: list[str] = []
    hoaregpu.verify(
        SPECS / "c_division.cu",
        cache=False,
        on_prepared=lambda prepared: seen.extend(k.kernel.name for k in prepared),
    )
    assert seen
