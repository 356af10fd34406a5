"""`index-bounds` checks: C's multi-dimensional arrays are row-major memory, ours map index
tuples (`hoaregpu.lower.in_rows`). They agree while every index but the first stays in its
row, which each access to an array with fixed row extents must prove: reaching the next
row through `t[0][2]` or a flattening pointer is refuted, never verified with a cell C does
not have."""

from __future__ import annotations

import pytest
from pipeline_kit import PROVED, REFUTED, lower, verdicts

from hoaregpu.errors import UnsupportedError


def outcomes(src: str) -> list[tuple[str, object]]:
    return [(v.kind, v.outcome) for v in verdicts(src)]


def test_flattening_through_a_pointer_is_refuted() -> None:
    # f[2] is C's t[1][0] = 7; the model's t[0][2] would be a cell of its own
    src = """
        /*@ requires blockDim.x == 2 && blockDim.y == 1 && blockDim.z == 1;
            ensures out[threadIdx.x] == 7; */
        __global__ void k(int *out) {
            __shared__ int t[2][2];
            int *f = &t[0][0];
            t[1][0] = 7;
            __syncthreads();
            out[threadIdx.x] = f[2];
        }
        """
    assert ("index-bounds", REFUTED) in outcomes(src)


def test_accesses_inside_their_rows_are_proved() -> None:
    src = """
        /*@ requires blockDim.x == 16 && blockDim.y == 16 && blockDim.z == 1;
            ensures out[threadIdx.y * 16 + threadIdx.x] == threadIdx.y * 16 + threadIdx.x; */
        __global__ void k(int *out) {
            __shared__ int tile[16][16];
            tile[threadIdx.y][threadIdx.x] = threadIdx.y * 16 + threadIdx.x;
            __syncthreads();
            out[threadIdx.y * 16 + threadIdx.x] = tile[threadIdx.y][threadIdx.x];
        }
        """
    got = outcomes(src)
    assert ("index-bounds", PROVED) in got
    assert all(o is PROVED for _, o in got)


def test_a_row_index_the_launch_does_not_bound_is_refuted() -> None:
    # nothing says blockDim.x <= 16: thread 16 would write the next row
    src = """
        __global__ void k(int *out) {
            __shared__ int tile[4][16];
            tile[0][threadIdx.x] = 1;
        }
        """
    assert outcomes(src) == [("index-bounds", REFUTED)]


def test_parameter_rows_and_the_first_index_are_checked_as_c_fixes_them() -> None:
    # `int t[][4]`: the row extent is C's, the number of rows is not (the first index is free)
    src = """
        /*@ requires 0 <= j && j < 5; */
        __global__ void k(int t[][4], int i, int j) {
            t[i][j] = 1;
        }
        """
    assert outcomes(src) == [("index-bounds", REFUTED)]  # j == 4 reaches row i + 1
    fixed = src.replace("j < 5", "j < 4")
    assert outcomes(fixed) == [("index-bounds", PROVED)]


def test_short_circuit_guards_the_check() -> None:
    # the access is evaluated only where j < 4: the check holds there
    src = """
        __global__ void k(int *out, int j) {
            __shared__ int t[2][4];
            out[threadIdx.x] = (j >= 0 && j < 4 && t[1][j] == 0) ? 1 : 0;
        }
        """
    assert all(o is PROVED for _, o in outcomes(src))


def test_a_pointer_to_a_field_of_an_array_element_may_not_step() -> None:
    # C's pf[1] is a[0].g, the next field; the model's step would reach a[1].f
    src = """
        struct S { int f; int g; };
        __global__ void k(int *out) {
            __shared__ S a[2];
            int *pf = &a[0].f;
            out[0] = pf[1];
        }
        """
    with pytest.raises(UnsupportedError, match="stepping a pointer to a field"):
        lower(src)
    with pytest.raises(UnsupportedError, match="stepping a pointer to a field"):
        lower(src.replace("out[0] = pf[1];", "pf++; out[0] = *pf;"))


def test_a_pointer_to_a_field_of_an_array_element_reads_that_field() -> None:
    src = """
        struct S { int f; int g; };
        /*@ requires blockDim.x == 2 && blockDim.y == 1 && blockDim.z == 1;
            ensures out[threadIdx.x] == 3; */
        __global__ void k(int *out) {
            __shared__ S a[2];
            int *pf = &a[threadIdx.x].f;
            *pf = 3;
            out[threadIdx.x] = a[threadIdx.x].f;
        }
        """
    assert all(o is PROVED for _, o in outcomes(src))
