"""`__device__` functions declared without a body, and the intrinsics of
`hoaregpu/frontend/calls.py` (__mul24, min/max/abs, warpSize, __threadfence, cuRAND)."""

from __future__ import annotations

from pathlib import Path

import pytest
from pipeline_kit import lowered, verified

from hoaregpu import core
from hoaregpu.driver import contract_calls
from hoaregpu.interp import run_kernel
from hoaregpu.solvers import Outcome

SRC = """
__device__ int nondet(void);
__device__ void scramble(int *a);
__device__ unsigned char peek(const int *a);

/*@ requires gridDim.x == 1; requires blockDim.x == 4;
    ensures a[tid] >= 0; */
__global__ void absolute(int *a) {
  int x = nondet();
  if (x < 0) x = -x;
  a[threadIdx.x] = x;
}

/*@ requires gridDim.x == 1; requires blockDim.x == 4;
    ensures a[tid] >= 1; */
__global__ void absolute_bug(int *a) {
  int x = nondet();
  if (x < 0) x = -x;
  a[threadIdx.x] = x;
}

/*@ requires gridDim.x == 1; requires blockDim.x == 4;
    ensures b[0] == \\old(b[0]); */
__global__ void scrambled(int *b) {
  scramble(b);
}

/*@ requires gridDim.x == 1; requires blockDim.x == 4;
    ensures b[0] == \\old(b[0]) && a[tid] >= 0 && a[tid] <= 255; */
__global__ void untouched(int *a, int *b) {
  if (threadIdx.x > 10) scramble(b);
  a[threadIdx.x] = peek(b);
}
"""


def test_arbitrary_values_and_havocked_arrays(tmp_path: Path) -> None:
    ks = verified(tmp_path, SRC)
    assert ks["absolute"].verdict == "verified"
    # a refutation that depends only on the arbitrary value is reported (some implementation
    # of nondet returns 0), and the kernel says which function it treated as arbitrary
    assert ks["absolute_bug"].verdict == "failed"
    warnings = ks["absolute_bug"].prepared.kernel.warnings
    assert [w.tag for w in warnings] == ["declared-only"] and "'nondet'" in warnings[0].message
    # a function given a pointer may change the array...
    assert ks["scrambled"].verdict == "failed"
    # ... unless no thread calls it, or the pointer is to const; the value lies in its type's range
    assert ks["untouched"].verdict == "verified"


def test_the_warning_comes_once_per_function_and_calls_need_no_verified_callee() -> None:
    src = """
    __device__ int nondet(void);
    __global__ void k(int *a) { a[0] = nondet(); a[1] = nondet(); }
    """
    k = lowered(src)["k"]
    assert len(k.warnings) == 1
    assert contract_calls(k.body) == set()


def test_the_interpreter_draws_reproducible_values_in_range() -> None:
    src = """
    __device__ bool coin(void);
    __device__ unsigned int u(void);
    /*@ requires gridDim.x == 1; requires blockDim.x == 8; */
    __global__ void k(int *a, int *b) { a[threadIdx.x] = coin(); b[threadIdx.x] = u(); }
    """
    k = lowered(src)["k"]
    runs = [run_kernel(k, 8, {"a": {}, "b": {}}, seed=s) for s in (1, 1, 2)]
    assert all(r.ok and r.final is not None for r in runs)
    cols = [[r.final.shared["a"].get((i,)) for i in range(8)] for r in runs if r.final]
    assert cols[0] == cols[1] and all(v in (0, 1) for v in cols[0])
    assert all(r.final.shared["b"].get((i,)) >= 0 for r in runs if r.final for i in range(8))


def test_a_scalar_passed_by_address_is_no_longer_uniform() -> None:
    src = """
    __device__ void set(int *p);
    /*@ ensures n == \\old(n); */
    __global__ void k(int n) { set(&n); }
    """
    k = lowered(src)["k"]
    assert k.decl("n").kind is core.VarKind.LOCAL


def test_curand_is_read_through_the_stand_in_header(tmp_path: Path) -> None:
    src = """
        #include <curand_kernel.h>
        /*@ requires gridDim.x == 1; requires blockDim.x == 4; ensures c[tid] == 1; */
        __global__ void k(curandState *state, float *a, int *c) {
          curand_init(1234, threadIdx.x, 0, &state[threadIdx.x]);
          a[threadIdx.x] = curand_uniform(&state[threadIdx.x]);
          c[threadIdx.x] = 1;
        }
        """
    # the stand-in's bodies touch only each thread's own state (tests/test_curand.py), so the
    # race checks are proved too; the numbers are unknown, and nothing warns about them
    k = verified(tmp_path, src)["k"]
    assert k.verdict == "verified"
    assert k.prepared.kernel.warnings == ()
    assert verified(tmp_path, src, check_races=False)["k"].verdict == "verified"


MUL24 = """
/*@ requires blockDim.x == 64 && gridDim.x == 64;
    ensures a[blockIdx.x * blockDim.x + threadIdx.x] == blockIdx.x * blockDim.x + threadIdx.x; */
__global__ void ok(int *a) {
  int i = __mul24(blockIdx.x, blockDim.x) + threadIdx.x;
  a[i] = i;
}

/*@ requires x >= 0; */
__global__ void too_wide(int *a, int x) {
  a[0] = __mul24(x, 2);
}
"""


def test_mul24_is_the_product_where_its_operands_fit_in_24_bits(tmp_path: Path) -> None:
    ks = verified(tmp_path, MUL24)
    assert ks["ok"].verdict == "verified"
    outcomes = [(r.vc.origin.kind.value, r.result.outcome) for r in ks["too_wide"].results]
    assert ("narrowing", Outcome.REFUTED) in outcomes


def test_min_max_abs_warpsize_and_fences(tmp_path: Path) -> None:
    ks = verified(
        tmp_path,
        """
        /*@ requires gridDim.x == 1; requires blockDim.x == 2;
            ensures r[0] == (x < y ? x : y) && r[1] == (x > y ? x : y);
            ensures r[2] >= 0 && r[3] == 32; */
        __global__ void k(int *r, int x, int y) {
          if (threadIdx.x == 0) {
            r[0] = min(x, y);
            r[1] = max(x, y);
            r[2] = abs(x);
            __threadfence();
            r[3] = warpSize;
            __threadfence_block();
          }
        }
        """,
    )
    assert ks["k"].verdict == "verified"


@pytest.mark.parametrize("wrong", ["r[3] == 64", "r[2] == x"])
def test_wrong_claims_about_intrinsics_are_refuted(tmp_path: Path, wrong: str) -> None:
    ks = verified(
        tmp_path,
        f"""
        /*@ requires gridDim.x == 1; requires blockDim.x == 1; ensures {wrong}; */
        __global__ void k(int *r, int x) {{
          r[2] = abs(x);
          r[3] = warpSize;
        }}
        """,
    )
    assert ks["k"].verdict == "failed"


LOOPS = """
__device__ char nondet();
__device__ int limit(int i);
__device__ int fill(int *a);

/*@ requires gridDim.x == 1; requires blockDim.x == 2;
    ensures a[tid] >= %s; */
__global__ void k(int *a) {
  int n = 0;
  /*@ loop invariant n >= 0; */
  while (nondet()) {
    n = n + 1;
    if (n > 5) continue;
  }
  /*@ loop invariant n >= 0; */
  for (int i = 0; i < limit(i); i++) {
    n = n + 1;
  }
  a[threadIdx.x] = n;
}
"""


def test_calls_in_loop_conditions_run_before_every_evaluation(tmp_path: Path) -> None:
    assert verified(tmp_path, LOOPS % "0")["k"].verdict == "verified"
    # zero iterations of both loops is one behaviour of nondet and limit
    assert verified(tmp_path, LOOPS % "1")["k"].verdict == "failed"
    k = lowered(LOOPS % "0")["k"]
    calls = [s for s in core.statements(k.body) if isinstance(s, core.Opaque)]
    assert [c.function for c in calls] == ["nondet", "nondet", "limit", "limit"]  # entry and each round


def test_calls_that_change_memory_stay_out_of_loop_conditions() -> None:
    from hoaregpu.errors import UnsupportedError

    with pytest.raises(UnsupportedError, match="call in a loop condition"):
        lowered("__device__ int fill(int *a);\n__global__ void k(int *a) { while (fill(a)) {} }")
    with pytest.raises(UnsupportedError, match="call in a loop condition"):
        lowered("__global__ void k(int *a) { while (atomicAdd(a, 1) < 4) {} }")


def test_texture_fetches_are_arbitrary_texels(tmp_path: Path) -> None:
    src = """
    texture<unsigned, 1, cudaReadModeElementType> tex;
    /*@ requires gridDim.x == 1; requires blockDim.x == 2; ensures a[tid] >= %s; */
    __global__ void k(unsigned *a) {
      tex1Dfetch(tex, 4);
      a[threadIdx.x] = tex1Dfetch(tex, threadIdx.x);
    }
    """
    assert verified(tmp_path, src % "0")["k"].verdict == "verified"  # an unsigned texel
    failed = verified(tmp_path, src % "1")["k"]
    assert failed.verdict == "failed"
    assert [w.tag for w in failed.prepared.kernel.warnings] == ["texture"]


def test_reference_parameters_are_like_pointers(tmp_path: Path) -> None:
    src = """
    __device__ void set(int &x);
    __device__ void look(const int &x);
    /*@ requires gridDim.x == 1; requires blockDim.x == 2; ensures a[tid] == 1; */
    __global__ void changed(int *a) { int x = 1; set(x); a[threadIdx.x] = x; }
    /*@ requires gridDim.x == 1; requires blockDim.x == 2; ensures a[tid] == 1 && b[0] == \\old(b[0]); */
    __global__ void kept(int *a, int *b) { int y = 1; look(y); look(b[0]); a[threadIdx.x] = y; }
    /*@ requires gridDim.x == 1; requires blockDim.x == 2; ensures b[0] == \\old(b[0]); */
    __global__ void cell(int *b) { set(b[1]); }
    """
    ks = verified(tmp_path, src)
    assert ks["changed"].verdict == "failed"
    assert ks["kept"].verdict == "verified"
    assert ks["cell"].verdict == "failed"  # a reference to b[1] reaches the whole array


def test_the_interpreter_draws_float_values_as_floats() -> None:
    src = """
    __device__ float noise(void);
    /*@ requires gridDim.x == 1; requires blockDim.x == 4; */
    __global__ void k(float *a) { a[threadIdx.x] = noise() + 1.0f; }
    """
    res = run_kernel(lowered(src)["k"], 4, {"a": {}}, seed=3)
    assert res.ok and res.final is not None
    values = [res.final.shared["a"].get((i,)) for i in range(4)]
    assert all(isinstance(v, float) and -4.0 <= v <= 6.0 for v in values), values
