"""The step budget bounds the evaluation of quantified clauses too: a loop invariant
quantified up to a huge `n` and checked at every iteration must not run for minutes."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from hoaregpu.cli import main

SPECS = Path(__file__).resolve().parents[2] / "specs"

HUGE_REQUIRES = """\
/*@ requires \\forall int j; 0 <= j < n ==> a[j] == 0;
    ensures true; */
__global__ void k(int *a, int n) {
    a[threadIdx.x] = 0;
}
"""


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, Any]]:
    code = main(["run", *args, "--json"])
    return code, json.loads(capsys.readouterr().out)


def test_invariant_over_huge_n_stops_on_the_budget(capsys: pytest.CaptureFixture[str]) -> None:
    start = time.monotonic()
    spec = str(SPECS / "vector_add_fixed4.cu")
    code, doc = _run([spec, "--input", '{"n":1000000000}', "--step-budget", "20000"], capsys)
    assert time.monotonic() - start < 30
    assert code == 1 and doc["status"] == "stopped"
    (v,) = [v for v in doc["violations"] if v["kind"] == "step-budget"]
    assert "quantifier instances" in v["message"] and v["span"].endswith("vector_add_fixed4.cu:11:9")


def test_requires_over_huge_n_stops_on_the_budget(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "k.cu"
    path.write_text(HUGE_REQUIRES, encoding="utf-8")
    code, doc = _run(
        [str(path), "--threads", "2", "--input", '{"n":1000000000}', "--step-budget", "5000"], capsys
    )
    assert code == 1 and doc["status"] == "stopped"
    assert [v["kind"] for v in doc["violations"]] == ["step-budget"]


def test_small_runs_are_not_affected(capsys: pytest.CaptureFixture[str]) -> None:
    spec = str(SPECS / "vector_add_fixed4.cu")
    code, doc = _run([spec, "--input", '{"n":9}', "--step-budget", "20000"], capsys)
    assert (code, doc["status"]) == (0, "ok")
