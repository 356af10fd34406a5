"""`hoaregpu suite` (hoaregpu/suite/): GPUVerify test headers, the agreement of our verdicts
with them, and the command's outputs, on small suites written here (the GPUVerify suite
itself is not in the repository)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from hoaregpu.cli import main
from hoaregpu.errors import ConfigError
from hoaregpu.launch import Launch
from hoaregpu.suite.header import read_header
from hoaregpu.suite.runner import agreement, find_tests, run_suite, why

# ---------------------------------------------------------------- headers


def test_pass_header_with_cuda_flags() -> None:
    h = read_header(
        "//pass\n//--blockDim=[16,2] --gridDim=4 -DN=8 -D M --no-inline\n__global__ void k() {}\n"
    )
    assert (h.expected, h.reason, h.category) == ("pass", "", "")
    assert h.launch() == Launch((16, 2, 1), (4, 1, 1))
    assert h.defines == ("N=8", "M")
    assert h.ignored == ("--no-inline",)
    assert h.checked and h.label == "pass"


def test_xfail_header_with_opencl_flags_and_expected_error() -> None:
    h = read_header(
        "//xfail:NOT_ALL_VERIFIED\n//--local_size=8 --global_size=64\n"
        "//kernel.cl:[\\s]+error:[\\s]+possible write-write race on A\n__kernel void k() {}\n"
    )
    assert (h.expected, h.reason, h.category) == ("xfail", "NOT_ALL_VERIFIED", "race")
    assert h.launch() == Launch((8, 1, 1), (8, 1, 1))
    assert h.checked  # races are checked (issue 11)
    assert h.label == "xfail:NOT_ALL_VERIFIED (race)"


@pytest.mark.parametrize(
    ("expectation", "category", "checked"),
    [
        ("//kernel.cu:12:5: error: this assertion might not hold", "assertion", True),
        ("//error: possible null pointer access", "null-pointer", False),
        ("//kernel.cl:7:3: error: possible array out-of-bounds access", "bounds", False),
        ("//barrier may be reached by non-uniform control flow", "barrier-divergence", True),
        ("", "", True),
    ],
)
def test_expected_error_categories(expectation: str, category: str, checked: bool) -> None:
    h = read_header(f"//xfail:NOT_ALL_VERIFIED\n//--blockDim=4\n{expectation}\nint x;\n")
    assert (h.category, h.checked) == (category, checked)


@pytest.mark.parametrize(
    ("flags", "benign"),
    [
        ("--local_size=64", "unread-values"),  # GPUVerify's default: read values may differ
        ("--local_size=64 --adversarial-abstraction", "unread-values"),
        ("--local_size=64 --equality-abstraction --no-inline", "same-value"),
        ("--local_size=64 --no-benign-tolerance", "none"),
        ("--no-benign-tolerance --equality-abstraction", "none"),
    ],
)
def test_gpuverify_flags_on_same_value_writes_are_followed(flags: str, benign: str) -> None:
    h = read_header(f"//pass\n//{flags}\n__kernel void k() {{}}\n")
    assert h.benign_writes == benign
    assert not {"--adversarial-abstraction", "--equality-abstraction", "--no-benign-tolerance"} & set(
        h.ignored
    )


def test_only_the_second_line_holds_flags() -> None:
    h = read_header(
        "//xfail:COMMAND_LINE_ERROR\n//--local_size=8\n//--num_groups=: not allowed with --global_size\n"
    )
    assert h.local_size == "8" and h.num_groups is None and h.ignored == ()


def test_tool_errors_and_missing_headers() -> None:
    h = read_header("//xfail:CLANG_ERROR\n//--blockDim=4\n")
    assert h.reason == "CLANG_ERROR" and not h.checked
    assert read_header("//PASS\n").expected == "pass"  # GPUVerify's suite spells it both ways
    with pytest.raises(ConfigError, match="no GPUVerify header"):
        read_header("__global__ void k() {}\n")


def test_agreement_table() -> None:
    passing = read_header("//pass\n")
    asserting = read_header("//xfail:NOT_ALL_VERIFIED\n//this assertion might not hold\n")
    racy = read_header("//xfail:NOT_ALL_VERIFIED\n//possible read-write race\n")
    clang = read_header("//xfail:CLANG_ERROR\n")
    assert [agreement(passing, v) for v in ("verified", "failed", "unknown", "not read")] == [
        "agree",
        "disagree",
        "undecided",
        "not read",
    ]
    assert [agreement(asserting, v) for v in ("verified", "failed")] == ["disagree", "agree"]
    assert [agreement(racy, v) for v in ("verified", "failed")] == ["disagree", "agree"]
    assert [agreement(clang, v) for v in ("not read", "verified")] == ["agree", "unchecked"]
    # GPUVerify flags that change what it checks make a kernel incomparable
    candidates = read_header("//pass\n//--local_size=4 --invariants-as-candidates\n")
    assert candidates.incomparable == ("--invariants-as-candidates",)
    assert agreement(candidates, "failed") == "unchecked"
    # an xfail kernel of unsaid reason where we have nothing to prove fails for a race or access
    unsaid = read_header("//xfail:NOT_ALL_VERIFIED\n//--local_size=4\n")
    assert agreement(unsaid, "verified", vcs=0) == "unchecked"
    assert agreement(unsaid, "verified", vcs=2) == "disagree"


# ---------------------------------------------------------------- running a suite

KERNELS = {
    "good/kernel.cl": "//pass\n//--local_size=4 --num_groups=2 --no-inline\n"
    "__kernel void k(__global int *a) {\n  a[get_global_id(0)] = N;\n"
    "  __assert(a[get_global_id(0)] == N);\n}\n",
    "bug/kernel.cu": "//xfail:NOT_ALL_VERIFIED\n//--blockDim=4 --gridDim=1 -DN=3\n"
    "//kernel.cu:5:3: error: this assertion might not hold\n"
    "__global__ void k(int *a) {\n  a[threadIdx.x] = N;\n  __assert(a[threadIdx.x] == N + 1);\n}\n",
    "wrong/kernel.cu": "//pass\n//--blockDim=4 --gridDim=1\n"
    "__global__ void k(int *a) {\n  a[threadIdx.x] = 1;\n  __assert(a[0] == 2);\n}\n",
    "unread/kernel.cl": "//pass\n//--local_size=4 --num_groups=1\n"
    "__kernel void k(__global int *a) {\n  a[0] = get_global_offset(0);\n}\n",
    "race/kernel.cl": "//xfail:NOT_ALL_VERIFIED\n//--local_size=4 --num_groups=1\n"
    "//possible write-write race\n__kernel void k(__global int *a) {\n  a[0] = get_local_id(0);\n}\n",
}


@pytest.fixture(scope="module")
def suite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("suite")
    for name, text in KERNELS.items():
        (root / name).parent.mkdir(parents=True)
        (root / name).write_text(text.replace("N", "7") if name.startswith("good") else text)
    (root / "notes.cl").write_text("not a test: only kernel.cu / kernel.cl are\n")
    return root


def test_finds_tests_by_gpuverify_layout(suite: Path) -> None:
    names = [str(p.relative_to(suite)) for p in find_tests(suite)]
    assert names == sorted(KERNELS)


def test_runs_and_scores_every_kernel(suite: Path) -> None:
    rows = {r.file: r for r in run_suite(find_tests(suite), suite, jobs=2, timeout=120.0)}
    assert (rows["good/kernel.cl"].verdict, rows["good/kernel.cl"].agreement) == ("verified", "agree")
    assert rows["good/kernel.cl"].notes == "--no-inline"
    assert (rows["bug/kernel.cu"].verdict, rows["bug/kernel.cu"].agreement) == ("failed", "agree")
    assert "assertion:6" in rows["bug/kernel.cu"].detail  # -DN=3 from the header reached Clang
    assert (rows["wrong/kernel.cu"].verdict, rows["wrong/kernel.cu"].agreement) == ("failed", "disagree")
    unread = rows["unread/kernel.cl"]
    assert (unread.verdict, unread.stage, unread.detail) == (
        "not read",
        "unsupported",
        "call to 'get_global_offset'",
    )
    # the worker checks races by default: the write-write race is found
    assert (rows["race/kernel.cl"].verdict, rows["race/kernel.cl"].agreement) == ("failed", "agree")
    assert "data-race:5 (confirmed by execution)" in rows["race/kernel.cl"].detail


def test_kernel_timeout_is_reported(suite: Path) -> None:
    (row,) = run_suite([suite / "good/kernel.cl"], suite, jobs=1, timeout=0.01)
    assert (row.verdict, row.stage) == ("not read", "timeout")


def test_command_outputs(suite: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["suite", str(suite), "--json", "-j", "2"]) == 1  # wrong/ disagrees
    doc = json.loads(capsys.readouterr().out)
    assert doc["summary"]["kernels"] == 5 and doc["summary"]["read"] == 4
    assert doc["summary"]["agree"] == 3 and doc["summary"]["counted"] == 4  # the race is counted now
    assert main(["suite", str(suite / "good"), "--csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [(r["file"], r["agreement"]) for r in rows] == [("kernel.cl", "agree")]
    assert main(["suite", str(suite / "bug")]) == 0
    out = capsys.readouterr().out
    assert "| xfail:NOT_ALL_VERIFIED (assertion) | 1 | 1 |" in out
    assert "agreement on what we check: 1 of 1 (100.0 %)" in out
    assert main(["suite", str(suite / "nothing-here")]) == 3


def test_disagreements_of_semantics_are_classified() -> None:
    header = read_header("//pass\n//--blockDim=16\n__global__ void k() {}\n")
    wrap = {"verdict": "failed", "failures": ["unsigned-wrap:3"]}
    rows = {"verdict": "failed", "failures": ["index-bounds:5", "narrowing:2"]}
    other = {"verdict": "failed", "failures": ["index-bounds:5", "postcondition:2"]}
    assert why(header, wrap, "disagree").startswith("semantics: hoaregpu's integers")
    assert why(header, rows, "disagree").startswith("semantics: hoaregpu keeps indices in their rows")
    assert why(header, other, "disagree") == "refuted, not confirmed by execution"
