"""cuRAND through the stand-in `curand_kernel.h`: bodies with cuRAND's state accesses and
unknown values (hoaregpu/frontend/include/curand_kernel.h, docs/races.md "cuRAND")."""

from __future__ import annotations

from pathlib import Path

from pipeline_kit import lowered, verified

from hoaregpu import core
from hoaregpu.driver import KernelResult
from hoaregpu.interp import run_kernel
from hoaregpu.interp.replay_cex import replay_results
from hoaregpu.interp.results import RACE
from hoaregpu.solvers import Outcome


def refuted(k: KernelResult) -> list[tuple[str, int]]:
    return [
        (r.vc.origin.kind.value, r.vc.origin.span.line)
        for r in k.results
        if r.result.outcome is Outcome.REFUTED
    ]


SHARED = """
#include <curand_kernel.h>
/*@ requires gridDim.x == 1; requires blockDim.x == 2; */
__global__ void shared(curandState *state, unsigned int *out) {
  out[threadIdx.x] = curand(state);
}
"""


def test_threads_sharing_one_xorwow_state_race_at_the_call(tmp_path: Path) -> None:
    k = verified(tmp_path, SHARED)["shared"]
    assert k.verdict == "failed"
    # every refutation is a race, reported at the user's call (line 4), not in the header
    assert set(refuted(k)) == {("data-race", 4)}
    # and not undecided by the any-cell policy of body-less calls: execution confirms it
    (replayed,) = replay_results([k])
    replays = [r.replay for r in replayed.results if r.result.outcome is Outcome.REFUTED]
    assert any(v is not None and v.confirmed for v in replays)
    assert k.prepared.kernel.warnings == ()  # the header's own value source warns of nothing


def test_each_thread_its_own_state_is_race_free_and_numbers_stay_unknown(tmp_path: Path) -> None:
    src = """
    #include <curand_kernel.h>
    /*@ requires gridDim.x == 1; requires blockDim.x == 2;
        ensures heads[tid] == 0 || heads[tid] == 1; */
    __global__ void own(curandState *s, int *heads, float *n) {
      curand_init(7, threadIdx.x, 0, &s[threadIdx.x]);
      heads[threadIdx.x] = curand(&s[threadIdx.x]) % 2;
      n[threadIdx.x] = curand_normal(&s[threadIdx.x]);
    }

    /*@ requires gridDim.x == 1; requires blockDim.x == 2;
        ensures heads[tid] == 0; */
    __global__ void claims_a_number(curandState *s, int *heads) {
      curand_init(7, threadIdx.x, 0, &s[threadIdx.x]);
      heads[threadIdx.x] = curand(&s[threadIdx.x]) % 2;
    }
    """
    ks = verified(tmp_path, src)
    assert ks["own"].verdict == "verified"
    # nothing is known of the numbers: a claim about one is refuted, not proved
    assert refuted(ks["claims_a_number"]) == [("postcondition", 11)]


def test_philox_sharing_races_and_own_states_do_not(tmp_path: Path) -> None:
    src = """
    #include <curand_kernel.h>
    /*@ requires gridDim.x == 1; requires blockDim.x == 2; */
    __global__ void own(curandStatePhilox4_32_10_t *s, float *u) {
      curand_init(1, threadIdx.x, 0, &s[threadIdx.x]);
      u[threadIdx.x] = curand_uniform(&s[threadIdx.x]);
    }

    /*@ requires gridDim.x == 1; requires blockDim.x == 2; */
    __global__ void shared(curandStatePhilox4_32_10_t *s, unsigned int *out) {
      out[threadIdx.x] = curand(s);
    }
    """
    ks = verified(tmp_path, src)
    assert ks["own"].verdict == "verified"
    assert ks["shared"].verdict == "failed" and {kind for kind, _ in refuted(ks["shared"])} == {"data-race"}


MTGP = """
#include <curand_kernel.h>
/*@ requires gridDim.x == 1; requires blockDim.x == %d;
    requires blockDim.y == 1; requires blockDim.z == 1; */
__global__ void block(curandStateMtgp32_t *state, unsigned int *out) {
  out[threadIdx.x] = curand(state);
}

/*@ requires gridDim.x == 1; requires blockDim.x == 4;
    requires blockDim.y == 1; requires blockDim.z == 1; */
__global__ void only_thread_zero(curandStateMtgp32_t *state, unsigned int *out) {
  if (threadIdx.x == 0) out[0] = curand(state);
}
"""


def test_mtgp32_is_cooperative_within_a_block(tmp_path: Path) -> None:
    ks = verified(tmp_path, MTGP % 256)
    # 256 threads (the generator's limit) read s[t + offset + 0, 1, pos - 1, pos] (pos <= 94)
    # and write s[t + offset + 351]: never the same cell
    assert ks["block"].verdict == "verified"
    # cuRAND's curand(MTGP32) synchronises the block: called by one thread, a divergent barrier
    assert ("barrier-divergence", 11) in refuted(ks["only_thread_zero"])


def test_mtgp32_model_reads_the_generator_offset_and_writes_it_between_barriers() -> None:
    k = lowered(MTGP % 4)["block"]
    syncs = [s for s in core.statements(k.body) if isinstance(s, core.Sync)]
    assert len(syncs) == 2
    text = str(k.body)
    assert "state.offset" in text and "351" in text and "1023" in text


def test_the_interpreter_runs_curand_and_finds_the_shared_state_race() -> None:
    k = lowered(SHARED)["shared"]
    runs = [run_kernel(k, 2, {"state.d": {}, "state.v": {}, "out": {}}, seed=s) for s in range(4)]
    assert all(r.final is not None for r in runs)
    assert any(v.kind == RACE and not v.benign for r in runs for v in r.violations)
    own = lowered(
        """
        #include <curand_kernel.h>
        /*@ requires gridDim.x == 1; requires blockDim.x == 4; */
        __global__ void own(curandState *s, unsigned int *out) {
          curand_init(3, threadIdx.x, 0, &s[threadIdx.x]);
          out[threadIdx.x] = curand(&s[threadIdx.x]);
        }
        """
    )["own"]
    r = run_kernel(own, 4, {"s.d": {}, "s.v": {}, "out": {}}, seed=1)
    assert r.ok and r.final is not None
    assert all(r.final.shared["out"].get((i,)) is not None for i in range(4))


def test_a_users_declared_only_function_still_warns_but_not_the_headers_values() -> None:
    src = """
    #include <curand_kernel.h>
    __device__ int nondet(void);
    __global__ void k(curandState *s, int *a) { a[threadIdx.x] = nondet() + curand(&s[threadIdx.x]); }
    """
    warnings = lowered(src)["k"].warnings
    assert [w.tag for w in warnings] == ["declared-only"] and "'nondet'" in warnings[0].message
