"""Invariants inferred for loops without one (hoaregpu.loop_inference): candidates read off the
loop, pruned Houdini-style, proved like the user's; never a way for a wrong kernel to verify."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pipeline_kit import kernel, line_of, source

from hoaregpu.core import While, assigned_vars, statements
from hoaregpu.driver import KernelResult, RunResult, VerifyOptions, kernel_launch, load_kernels, verify
from hoaregpu.loop_inference import FUNCTIONAL_COL, dead_at_head, survivors, with_candidates
from hoaregpu.pretty import show_term
from hoaregpu.report import render_json
from hoaregpu.solvers import Outcome
from hoaregpu.unroll import unroll


def run(tmp_path: Path, src: str, **options: int) -> KernelResult:
    path = tmp_path / "k.cu"
    path.write_text(source(src))
    result = verify([str(path)], VerifyOptions(jobs=2, unroll=0, **options))  # type: ignore[arg-type]
    assert not result.errors, [e.render() for e in result.errors]
    (kernel,) = result.kernels
    return kernel


def kept(k: KernelResult) -> list[str]:
    return [show_term(f.term) for f in survivors(k.prepared.kernel)]


def refuted(k: KernelResult) -> set[tuple[str, int]]:
    return {
        (r.vc.origin.kind.value, r.vc.origin.span.line)
        for r in k.results
        if r.result.outcome is Outcome.REFUTED
    }


def test_lower_bound_of_a_counter_is_inferred(tmp_path: Path) -> None:
    # GPUVerify's inference_tests/lower_bound: the bound is neither a constant nor an invariant
    k = run(
        tmp_path,
        """
        __global__ void k(int x, int y, int z) {
            for (int i = 0; i < (x ? y : z); i++) {
                //@ assert i >= 0;
            }
        }
        """,
    )
    assert k.verdict == "verified", refuted(k)
    assert "i >= 0" in kept(k)
    doc = json.loads(render_json(RunResult((k,), ())))
    assert "i >= 0" in doc["kernels"][0]["loops_without_invariant"][0]["inferred"]


def test_uniform_counter_makes_barriers_in_the_loop_non_divergent(tmp_path: Path) -> None:
    k = run(
        tmp_path,
        """
        __global__ void k(int *p, int n) {
            for (int i = 0; i < n; i++) {
                __syncthreads();
                p[threadIdx.x] = threadIdx.x;
                __syncthreads();
            }
        }
        """,
    )
    assert k.verdict == "verified", refuted(k)
    assert "i == i @ 0" in kept(k)


def test_stride_and_bound_of_an_unsigned_counter(tmp_path: Path) -> None:
    # GPUVerify's inference_tests/strided_invariant: `j % 16 == 0` and `j` below its bound (no wrap)
    k = run(
        tmp_path,
        """
        __global__ void k(int *a, unsigned n) {
            for (unsigned j = 0; j < n; j += 16) {
                //@ assert j % 16 == 0;
            }
        }
        """,
    )
    assert k.verdict == "verified", refuted(k)
    assert "j % 16 == 0 % 16" in kept(k)


def test_a_wrong_assertion_still_fails_and_false_candidates_are_dropped(tmp_path: Path) -> None:
    src = """
        __global__ void k(int *a, int n) {
            for (int i = threadIdx.x; i < n; i++) {
                //@ assert i >= 1;
            }
        }
        """
    k = run(tmp_path, src)
    assert k.verdict == "failed"
    assert ("assertion", line_of(src, "assert")) in refuted(k)
    assert "i == i @ 0" not in kept(k)  # the counter starts at the thread's index
    assert "i >= tid" in kept(k)


def test_a_thread_dependent_trip_count_is_still_barrier_divergence(tmp_path: Path) -> None:
    src = """
        __global__ void k(int *p, unsigned n) {
            for (unsigned i = 0; i < n + threadIdx.x; i++) {
                __syncthreads();
            }
        }
        """
    k = run(tmp_path, src)
    assert ("barrier-divergence", line_of(src, "__syncthreads")) in refuted(k)


def test_no_candidates_about_a_variable_the_user_s_invariant_reads(tmp_path: Path) -> None:
    src = source(
        """
        __global__ void k(int *a, int n) {
            int s = 4;
            for (int i = 2; i < n; i += s) { a[i] = 0; }
            //@ loop invariant i >= 0;
            for (int i = 0; i < n; i++) { a[i] = 1; }
        }
        """
    )
    path = tmp_path / "k.cu"
    path.write_text(src)
    (kernel,) = load_kernels(str(path), None)
    unrolled = unroll(kernel, kernel_launch(kernel, None), 0)
    assert len(unrolled.missing) == 1  # the second loop has the user's invariant
    _, found = with_candidates(unrolled.kernel, unrolled.missing)
    assert all(col >= FUNCTIONAL_COL for col in found)
    terms = {show_term(f.term) for f in found.values()}
    assert {"i == i @ 0", "i >= 2", "i <= 2", "i % s == 2 % s", "i <= n"} <= terms
    assert all(f.span.line == line_of(src, "i += s") for f in found.values())


USER_SAID_OTHER = """
    /*@ requires gridDim.x == 1; */
    __global__ void k(int *p, int n) {
        int seen = 0;
        //@ loop invariant seen >= 0;
        for (int i = 0; i < n; i++) {
            __syncthreads();
            p[threadIdx.x] = i;
            seen = seen + 1;
            __syncthreads();
        }
    }
    """


def test_a_loop_whose_invariant_leaves_its_counter_unsaid_gets_the_counter_s_candidates(
    tmp_path: Path,
) -> None:
    # GPUVerify's inference_tests/disabled_invariant: a user's invariant does not turn
    # inference off; candidates are guessed about the variables it does not read (and, the
    # loop holding barriers, the uniformity of those it reads: no bound of `seen`)
    k = run(tmp_path, USER_SAID_OTHER)
    assert k.verdict == "verified", refuted(k)
    assert "i == i @ 0" in kept(k)
    assert [t for t in kept(k) if t.startswith("seen")] == ["seen == seen @ 0"]
    invariants = [
        show_term(f.term)
        for f in k.prepared.kernel.body.stmts[-1].invariants  # type: ignore[attr-defined]
    ]
    assert "seen >= 0" in invariants  # the user's own stays, proved like the inferred ones


def test_a_barrier_loop_whose_invariant_bounds_its_counter_gets_the_counter_s_uniformity(
    tmp_path: Path,
) -> None:
    # the natural invariant of a tiled loop says the counter's range, not that every thread
    # has the same counter, which the barriers need: that candidate is added beside it
    # (GPUVerify infers it too); without a barrier in the loop, nothing is guessed about i
    src = """
        /*@ requires gridDim.x == 1; requires n >= 0; */
        __global__ void k(int *p, int n) {
            //@ loop invariant 0 <= i && i <= n;
            for (int i = 0; i < n; i++) {
                __syncthreads();
                p[threadIdx.x] = i;
                __syncthreads();
            }
        }
        """
    k = run(tmp_path, src)
    assert k.verdict == "verified", refuted(k)
    assert kept(k) == ["i == i @ 0"]
    plain = run(tmp_path, src.replace("__syncthreads();", ""))
    assert plain.verdict == "verified", refuted(plain)
    assert kept(plain) == []


def test_no_uniformity_candidate_where_the_user_states_it(tmp_path: Path) -> None:
    def guessed(invariant: str) -> list[str]:
        path = tmp_path / "k.cu"
        path.write_text(
            source(
                f"""
                /*@ requires gridDim.x == 1; requires n >= 0; */
                __global__ void k(int *p, int n) {{
                    //@ loop invariant {invariant};
                    for (int i = 0; i < n; i++) {{ p[threadIdx.x] = i; __syncthreads(); }}
                }}
                """
            )
        )
        (kernel,) = load_kernels(str(path), None)
        unrolled = unroll(kernel, kernel_launch(kernel, None), 0)
        _, found = with_candidates(unrolled.kernel, unrolled.missing)
        return [show_term(f.term) for f in found.values()]

    assert guessed("0 <= i && i <= n && i == i @ 0") == []
    assert guessed("0 <= i && i <= n") == ["i == i @ 0"]


def test_a_wrong_user_invariant_beside_inferred_ones_still_fails(tmp_path: Path) -> None:
    bug = USER_SAID_OTHER.replace("seen >= 0", "seen <= 3")
    k = run(tmp_path, bug)
    assert k.verdict == "failed"
    assert ("loop-invariant-preserved", line_of(bug, "seen <= 3")) in refuted(k)


def _loops(src: str) -> tuple[Any, list[Any]]:
    k = kernel(src)
    return k, [s for s in statements(k.body) if isinstance(s, While)]


def test_no_candidate_about_a_variable_dead_at_the_loop_head() -> None:
    # the inner counters are set before any read in each iteration and read nowhere after:
    # an invariant about their value at the outer head cannot help a VC
    k, (outer, middle, inner) = _loops(
        """
        __global__ void k(int *a, int n) {
            int last = 0;
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    for (int l = 0; l < n; l++) { a[threadIdx.x] = l; }
                }
                last = i;
            }
            a[0] = last;
        }
        """
    )
    assert dead_at_head(k, outer, assigned_vars(outer.body)) == {"j", "l"}
    assert dead_at_head(k, middle, assigned_vars(middle.body)) == {"l"}
    assert dead_at_head(k, inner, assigned_vars(inner.body)) == set()
    # `last` is read after the loop; a counter read before it is set is not dead either
    k, (loop,) = _loops(
        """
        __global__ void k(int *a, int n) {
            int x = 0;
            for (int i = 0; i < n; i++) { a[i] = x; x = 1; }
        }
        """
    )
    assert dead_at_head(k, loop, assigned_vars(loop.body)) == set()


def test_on_several_blocks_a_barrier_loop_s_counter_is_uniform_over_the_grid(tmp_path: Path) -> None:
    # per block, `m == m @ 0` alone left both barriers undecided (a z3 matching loop through
    # thread 0 of the thread's block) and the store to `C` raced with a log the barriers had
    # lowered: the kernel failed, though it is race-free
    src = """
        /*@ requires blockDim.x == 4 && gridDim.x == 2 && gridDim.y == 2; */
        __global__ void k(const int *A, int *C, int K) {
            __shared__ int s[4];
            int acc = 0;
            for (int m = 0; m < K; m++) {
                s[threadIdx.x] = A[m];
                __syncthreads();
                acc += s[(threadIdx.x + 1) % 4];
                __syncthreads();
            }
            C[(blockIdx.y * 2 + blockIdx.x) * 4 + threadIdx.x] = acc;
        }
        """
    k = run(tmp_path, src)
    assert k.verdict == "verified", refuted(k)
    # the per block one is implied by the grid's: the kernel's own VCs do without it, the race
    # checks keep it (`loop_inference.without_implied`)
    assert "m == m @ (0, 0)" in kept(k) and "m == m @ 0" not in kept(k)
    race_kernel = {text for _, text in k.prepared.inferred_invariants}
    assert {"m == m @ 0", "m == m @ (0, 0)", "write_flag(C) == 0"} <= race_kernel


def test_a_counter_uniform_per_block_only_keeps_the_per_block_candidate(tmp_path: Path) -> None:
    src = """
        /*@ requires blockDim.x == 4 && gridDim.x == 2; */
        __global__ void k(const int *A, int *C, int K) {
            __shared__ int s[4];
            for (int m = blockIdx.x; m < K; m++) {
                s[threadIdx.x] = A[m];
                __syncthreads();
                C[blockIdx.x * 4 + threadIdx.x] = s[(threadIdx.x + 1) % 4];
                __syncthreads();
            }
        }
        """
    k = run(tmp_path, src)
    assert "m == m @ 0" in kept(k)
    assert "m == m @ (0, 0)" not in kept(k)  # block 1 starts at 1
    assert not any(kind == "barrier-divergence" for kind, _ in refuted(k))
