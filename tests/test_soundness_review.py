"""Soundness review: kernels that are wrong (in C/CUDA or by the paper's semantics) and
that `verify` must not report as verified. Each runs through `hoaregpu.cli.main`."""

from __future__ import annotations

from pathlib import Path

import pytest

from hoaregpu.cli import main

VERIFIED, FAILED, UNDECIDED, INPUT_ERROR = 0, 1, 2, 3


def verify(tmp_path: Path, src: str, *extra: str) -> int:
    path = tmp_path / "k.cu"
    path.write_text(src, encoding="utf-8")
    return main(["verify", str(path), "--no-cache", "--no-replay", *extra])


# -- #define is textual in C -------------------------------------------------------------
# `#define M 2+1` then `M * 2` is `2+1*2 == 4` in C, but a define's value was parsed on its
# own and substituted as one subterm, `(2+1)*2 == 6`: a kernel C computes differently was
# verified. Values that are not one token or one parenthesised expression are now rejected.

DEFINE_PRECEDENCE = """\
#define M 2+1
/*@ ensures r == 6; */
__global__ void k(int *out) {
    int r = M * 2;
    out[threadIdx.x] = r;
}
"""


def test_define_value_is_not_a_subterm(tmp_path: Path) -> None:
    assert verify(tmp_path, DEFINE_PRECEDENCE) != VERIFIED


@pytest.mark.parametrize("value", ["4", "-1", "(2 + 1)", "((2) * (N0))", "N0"])
def test_atomic_define_values_still_accepted(tmp_path: Path, value: str) -> None:
    kernel = "/*@ ensures true; */\n__global__ void k(int *out) {\n    out[threadIdx.x] = M;\n}\n"
    src = f"#define N0 3\n#define M {value}\n" + kernel
    assert verify(tmp_path, src) == VERIFIED


# -- `assume` must be reported ------------------------------------------------------------
# spec-language.md §3: `assume φ` is "taken as true (reported as an assumption)". A false
# assumption makes the kernel's VCs hold vacuously; the report said "verified" and named no
# assumption. The verdict stays (the logic is conditional) but the assumption is now shown.

ASSUME_FALSE = """\
/*@ ensures a[0] == 1; */
__global__ void k(int *a) {
    a[0] = 2;
    //@ assume a[0] == 1;
}
"""


def test_assume_is_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    verify(tmp_path, ASSUME_FALSE)
    out = capsys.readouterr().out
    assert "k.cu:4:9: note:" in out and "[assumption]" in out


def test_assume_is_in_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    verify(tmp_path, ASSUME_FALSE, "--json")
    (kernel,) = json.loads(capsys.readouterr().out)["kernels"]
    assert [a.endswith("k.cu:4:9") for a in kernel["assumptions"]] == [True]


# -- signed -> unsigned conversions wrap in C -----------------------------------------------
# `unsigned u = -1;` holds 4294967295 and `-1u > 5` is true in C; read as mathematical
# integers both were -1, and kernels C computes differently were verified. Every place C
# computes a value as unsigned now carries an `unsigned-wrap` check (hoaregpu/unsigned.py),
# which these refute (see also tests/test_unsigned.py).

NEGATIVE_TO_UNSIGNED = """\
/*@ requires blockDim.x == 1;
    ensures out[0] == 0; */
__global__ void k(int *out) {
    unsigned u = -1;
    out[0] = u > 5 ? 1 : 0;
}
"""

MINUS_UNSIGNED = """\
/*@ requires blockDim.x == 1;
    ensures out[0] == 0; */
__global__ void k(int *out) {
    out[0] = -1u > 5 ? 1 : 0;
}
"""

CONST_NEGATIVE_COMPARED = """\
/*@ requires blockDim.x == 2;
    ensures \\forall int j; 0 <= j < 2 ==> out[j] == 1; */
__global__ void k(int *out) {
    const int m = -1;
    if (m < blockDim.x) out[threadIdx.x] = 1; else out[threadIdx.x] = 0;
}
"""


@pytest.mark.parametrize("src", [NEGATIVE_TO_UNSIGNED, MINUS_UNSIGNED, CONST_NEGATIVE_COMPARED])
def test_negative_constant_to_unsigned_is_refuted(
    tmp_path: Path, src: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert verify(tmp_path, src) == FAILED
    out = capsys.readouterr().out
    assert "k.cu:4:" in out or "k.cu:5:" in out
    assert "[unsigned-wrap]" in out and "1 refuted" in out


def test_nonnegative_constant_to_unsigned_still_reads(tmp_path: Path) -> None:
    src = NEGATIVE_TO_UNSIGNED.replace("u = -1", "u = 7").replace("== 0; */", "== 1; */")
    assert verify(tmp_path, src) == VERIFIED
