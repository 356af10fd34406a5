"""The command line on hostile input and environments: errors, never tracebacks."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from hoaregpu.cli import main

SPECS = Path(__file__).resolve().parent.parent / "specs"
ROOT = SPECS.parent
INPUT_ERROR = 3


def test_closed_output_pipe_exits_quietly() -> None:
    """`hoaregpu verify specs/ | head -1`: the reader has gone; exit 141 (as a tool killed by
    SIGPIPE), nothing on stderr: no traceback, no "internal error", no "Exception ignored"."""
    cmd = [sys.executable, "-m", "hoaregpu.cli", "verify", str(SPECS / "c_division.cu"), "--no-cache"]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # before the first write: every write fails with EPIPE
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 141, err
    assert "Traceback" not in err and "internal error" not in err and "Exception ignored" not in err


@pytest.mark.parametrize("depth", [1_000, 100_000])
def test_deeply_nested_input_is_an_input_error(
    tmp_path: Path, depth: int, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "in.json"
    data.write_text('{"a": ' + "[" * depth + "]" * depth + "}")
    code = main(["run", str(SPECS / "c_division.cu"), "--threads", "2", "--input", f"@{data}"])
    err = capsys.readouterr().err
    assert code == INPUT_ERROR, err
    assert "internal error" not in err and len(err) < 500


def test_huge_bad_input_value_is_not_echoed_whole(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "in.json"
    data.write_text(json.dumps({"x": [list(range(10_000))]}))
    code = main(["run", str(SPECS / "c_division.cu"), "--threads", "2", "--input", f"@{data}"])
    assert code == INPUT_ERROR
    assert len(capsys.readouterr().err) < 500
