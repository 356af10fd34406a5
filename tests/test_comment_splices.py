"""A backslash-newline inside a `//` comment continues the comment (C translation phase
2): the next line is not code. Behaviour through `hoaregpu verify` and `hoaregpu run`, so
this holds whatever front end reads the file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hoaregpu.cli import main

VERIFIED, FAILED = 0, 1

SPLICED_AWAY = """\
/*@ requires gridDim.x == 1; ensures out[threadIdx.x] == 5; */
__global__ void k(int *out) {
    out[threadIdx.x] = 1;
    // set the final value \\
    out[threadIdx.x] = 5;
}
"""

# The same with CRLF line endings, and with the spliced-away line inside a loop.
CRLF = SPLICED_AWAY.replace("\n", "\r\n")

KEPT = """\
/*@ requires gridDim.x == 1; ensures out[threadIdx.x] == 5; */
__global__ void k(int *out) {
    out[threadIdx.x] = 1;
    // set the final value
    out[threadIdx.x] = 5;
}
"""

BLOCK_CLOSED_BY_SPLICE = """\
/*@ requires gridDim.x == 1; ensures out[threadIdx.x] == 5; */
__global__ void k(int *out) {
    out[threadIdx.x] = 1;
    /* the comment ends here: *\\
/ out[threadIdx.x] = 5;
}
"""


def _verify(tmp_path: Path, src: str) -> int:
    path = tmp_path / "k.cu"
    path.write_bytes(src.encode())
    return main(["verify", str(path), "--no-cache", "--no-replay"])


@pytest.mark.parametrize("src", [SPLICED_AWAY, CRLF], ids=["lf", "crlf"])
def test_spliced_comment_line_is_not_code(tmp_path: Path, src: str) -> None:
    assert _verify(tmp_path, src) == FAILED


def test_without_the_backslash_the_line_is_code(tmp_path: Path) -> None:
    assert _verify(tmp_path, KEPT) == VERIFIED


def test_block_comment_closed_across_a_splice(tmp_path: Path) -> None:
    assert _verify(tmp_path, BLOCK_CLOSED_BY_SPLICE) == VERIFIED


def test_run_agrees(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "k.cu"
    path.write_text(SPLICED_AWAY, encoding="utf-8")
    code = main(["run", str(path), "--threads", "2", "--input", '{"out":[0,0]}', "--json"])
    assert code == FAILED
    doc = json.loads(capsys.readouterr().out)
    assert "postcondition" in json.dumps(doc)
