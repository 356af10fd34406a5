"""Candidate invariants refuted by runs before Houdini (hoaregpu.candidate_runs): a candidate a
run shows false is dropped, a true one never is, and a run past a failure refutes nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from pipeline_kit import source

from hoaregpu.candidate_runs import refuted
from hoaregpu.core import Formula
from hoaregpu.driver import kernel_launch, load_kernels
from hoaregpu.loop_inference import with_candidates
from hoaregpu.pretty import show_term
from hoaregpu.unroll import unroll


def guessed(tmp_path: Path, src: str) -> tuple[set[str], set[str]]:
    """(all candidate texts, the refuted ones) of the kernel in `src`."""
    path = tmp_path / "k.cu"
    path.write_text(source(src))
    (kernel,) = load_kernels(str(path), None)
    launch = kernel_launch(kernel, None)
    unrolled = unroll(kernel, launch, 0)
    program, found = with_candidates(unrolled.kernel, unrolled.missing)
    gone = refuted(program, launch, found)

    def texts(fs: list[Formula]) -> set[str]:
        return {show_term(f.term) for f in fs}

    return texts(list(found.values())), texts([found[c] for c in gone])


ACCUMULATE = """
    /*@ requires blockDim.x == 4 && n >= 2; */
    __global__ void k(const int *a, int *out, int n) {
        int acc = threadIdx.x;
        for (int i = 0; i < n; i++) {
            acc += a[i * 4 + threadIdx.x];
        }
        out[threadIdx.x] = acc;
    }
    """


def test_a_run_refutes_false_candidates_and_keeps_true_ones(tmp_path: Path) -> None:
    every, gone = guessed(tmp_path, ACCUMULATE)
    # the accumulator differs between threads from the start, and its value wanders
    assert "acc == acc @ 0" in gone
    # true of every execution: a run can never show them false
    true = {"i == i @ 0", "i >= 0", "i <= n"}
    assert true <= every
    assert not (true & gone)


def test_past_a_failed_assert_a_run_refutes_nothing(tmp_path: Path) -> None:
    # the VC generator assumes the assert after checking it, so Houdini's model has no state
    # past it: every candidate holds there vacuously, and none may be dropped for the run's
    failing = ACCUMULATE.replace("int acc = threadIdx.x;", "int acc = threadIdx.x;\n//@ assert n < 0;")
    every, gone = guessed(tmp_path, failing)
    assert "acc == acc @ 0" in every
    assert gone == set()


def test_without_an_admissible_input_nothing_is_refuted(tmp_path: Path) -> None:
    # neither sampling nor a z3 model satisfies `requires`: no run, no refutation
    every, gone = guessed(tmp_path, ACCUMULATE.replace("n >= 2", "n >= 2 && n * n < 0"))
    assert "acc == acc @ 0" in every
    assert gone == set()


def test_the_last_head_of_a_loop_is_checked(tmp_path: Path) -> None:
    # heads are checked sampled (the first four, powers of two) and at the last: the stride
    # overshoots n only there (i = 21 > 20, the 8th head), and `i <= n` is no invariant
    every, gone = guessed(
        tmp_path,
        """
        /*@ requires n == 20; */
        __global__ void k(int *out, int n) {
            int i = 0;
            while (i < n) { i += 3; }
            out[threadIdx.x] = i;
        }
        """,
    )
    assert "i <= n" in gone
    assert {"i >= 0", "i % 3 == 0 % 3"} <= every - gone


def test_a_large_mask_is_checked_at_its_edges_and_spread_between() -> None:
    from hoaregpu.interp.falsify import _sample

    small = list(range(100))
    assert _sample(small) == small
    mask = list(range(0, 8192, 2))  # 4,096 threads
    picked = _sample(mask)
    assert len(picked) == 128 and set(picked) <= set(mask)
    assert picked[:32] == mask[:32] and picked[-32:] == mask[-32:]
    assert len(set(picked)) == len(picked)
    assert max(picked[32:-32]) > 4000  # the middle is spread over the mask, not bunched


def test_a_run_that_breaks_refutes_nothing_and_does_not_break_inference(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from hoaregpu.interp import falsify

    def broken(*args: object) -> None:
        raise RuntimeError("an interpreter bug")

    monkeypatch.setattr(falsify.SampledHeads, "run", broken)
    every, gone = guessed(tmp_path, ACCUMULATE)
    assert "acc == acc @ 0" in every
    assert gone == set()
