"""Cooperative groups (`hoaregpu/frontend/groups.py`, include/cooperative_groups.h): the
block's barrier is __syncthreads(), the grid's a barrier of the whole grid, in the VCs
(strict rule over the grid) and in both interpreters."""

from __future__ import annotations

import re

import pytest
from pipeline_kit import PROVED, REFUTED, lower, verdicts

from hoaregpu import core
from hoaregpu.errors import SpecError, UnsupportedError
from hoaregpu.frontend import parse_text
from hoaregpu.grid import geometry, live_coords
from hoaregpu.interp.results import BARRIER_DIVERGENCE
from hoaregpu.interp.run import run_kernel
from hoaregpu.launch import ALL_COORDS, Launch
from hoaregpu.pretty import show_stmt
from hoaregpu.proof.kernel import kernel_info
from hoaregpu.proof.syntax import show_prog

HEAD = "#include <cuda.h>\nusing namespace cooperative_groups;\n"
LAUNCH = "/*@ requires blockDim.x == 2 && gridDim.x == 2 && gridDim.y == 1 && gridDim.z == 1; */\n"


def syncs(src: str) -> list[core.Sync]:
    k = lower(HEAD + src)
    return [s for s in core.statements(k.body) if isinstance(s, core.Sync)]


def test_each_spelling_of_a_group_barrier_is_a_barrier_of_its_group() -> None:
    got = syncs(
        "__global__ void k(int *a) {\n"
        "  grid_group g = this_grid(); thread_block t = this_thread_block(); grid_group h = g;\n"
        "  g.sync(); sync(h); synchronize(g); this_grid().sync();\n"
        "  t.sync(); sync(t); synchronize(t); this_thread_block().sync(); __syncthreads(); }"
    )
    assert [s.grid for s in got] == [True] * 4 + [False] * 5


def test_group_variables_hold_nothing_and_the_ranks_are_closed_forms() -> None:
    k = lower(
        HEAD + "__global__ void k(int *a, int *b) {\n"
        "  grid_group g = this_grid(); thread_block t = this_thread_block();\n"
        "  a[g.thread_rank()] = g.size(); b[t.thread_rank()] = t.size(); }"
    )
    text = "\n".join(show_stmt(k.body))
    assert not any(d.name in ("g", "t") for d in k.decls)
    rank = "tid + threadIdx.y * ntid + threadIdx.z * (ntid * blockDim.y)"
    assert f"b[{rank}] := ntid * blockDim.y * blockDim.z" in text
    assert "a[(blockIdx.x + blockIdx.y * gridDim.x + blockIdx.z * (gridDim.x * gridDim.y)) * (ntid" in text


def test_a_grid_barrier_makes_every_block_coordinate_live() -> None:
    # blocks that differ only in an unread coordinate must not be assumed to meet together
    k = lower(HEAD + "__global__ void k(int *a) { a[threadIdx.x] = 1; this_grid().sync(); }")
    assert live_coords(k) == tuple(c for c in ALL_COORDS if c.block or c.axis == 0)
    block_only = lower(HEAD + "__global__ void k(int *a) { a[threadIdx.x] = 1; this_thread_block().sync(); }")
    assert len(live_coords(block_only)) == 1


BRANCH = (
    HEAD
    + LAUNCH
    + "__global__ void k(int *a) {\n  if (blockIdx.x == 0) { SYNC; }\n"
    + "  a[blockIdx.x * 2 + threadIdx.x] = 1;\n}\n"
)


@pytest.mark.parametrize(
    ("sync", "outcome"),
    [
        ("this_thread_block().sync()", PROVED),  # uniform in each block: fine for a block barrier
        ("this_grid().sync()", REFUTED),  # the grid's other block never comes
        ("__syncthreads()", PROVED),
    ],
)
def test_a_barrier_under_a_block_condition(sync: str, outcome: str) -> None:
    assert [v.outcome for v in verdicts(BRANCH.replace("SYNC", sync))] == [outcome]


def test_a_grid_barrier_under_a_thread_condition_is_divergence_and_everywhere_it_is_not() -> None:
    src = HEAD + LAUNCH + "__global__ void k(int *a) {\n  if (threadIdx.x < 2) { this_grid().sync(); }\n}\n"
    assert [v.outcome for v in verdicts(src)] == [PROVED]  # every thread of every block
    assert [v.outcome for v in verdicts(src.replace("< 2", "< 1"))] == [REFUTED]


EXCHANGE = (
    HEAD + LAUNCH + "/*@ ensures \\forall int t; 0 <= t < 4 ==> b[t] == \\old(a[(t + 2) % 4]); */\n"
    "__global__ void k(int *a, int *b) {\n  int i = blockIdx.x * 2 + threadIdx.x;\n"
    "  int v = a[(i + 2) % 4];\n  SYNC;\n  b[i] = v;\n}\n"
)


@pytest.mark.parametrize("semantics", ["lockstep", "interleave"])
def test_interpreters_meet_at_a_grid_barrier(semantics: str) -> None:
    k = lower(EXCHANGE.replace("SYNC", "this_grid().sync()"))
    geo = geometry(k, Launch())
    for seed in range(5):
        r = run_kernel(k, geo, {"a": [10, 11, 12, 13], "b": [0, 0, 0, 0]}, seed, semantics=semantics)
        assert r.failures == [], r.failures
        assert r.final is not None and [r.final.shared["b"].get((t,)) for t in range(4)] == [12, 13, 10, 11]


@pytest.mark.parametrize("semantics", ["lockstep", "interleave"])
def test_interpreters_find_grid_barrier_divergence(semantics: str) -> None:
    k = lower(BRANCH.replace("SYNC", "this_grid().sync()"))
    r = run_kernel(k, geometry(k, Launch()), {"a": []}, semantics=semantics)
    assert [v.kind for v in r.failures] == [BARRIER_DIVERGENCE]
    ok = lower(BRANCH.replace("SYNC", "this_thread_block().sync()"))
    assert run_kernel(ok, geometry(ok, Launch()), {"a": []}, semantics=semantics).failures == []


def test_interleaving_finds_a_block_and_the_grid_waiting_at_different_barriers() -> None:
    src = (
        HEAD
        + LAUNCH
        + (
            "__global__ void k(int *a) {\n"
            "  if (blockIdx.x == 0) { this_grid().sync(); } else { __syncthreads(); }\n}\n"
        )
    )
    k = lower(src)
    r = run_kernel(k, geometry(k, Launch()), {"a": []}, semantics="interleave")
    assert [v.kind for v in r.failures] == [BARRIER_DIVERGENCE]


def test_proofs_take_a_grid_barrier_on_a_fixed_grid_only() -> None:
    """A grid barrier makes every block coordinate live: derivations cover it as H-SYNC over
    the whole grid's `tid` range when the contract fixes the grid, and refuse it otherwise."""
    body = " __global__ void k(int *a) { this_grid().sync(); }"
    k = lower(HEAD + "/*@ requires blockDim.x == 2; */" + body)
    with pytest.raises(UnsupportedError, match=re.escape("gridDim.x, gridDim.y, gridDim.z is not fixed")):
        kernel_info("k.cu", k)
    fixed = "/*@ requires blockDim.x == 2 && gridDim.x == 3 && gridDim.y == 1 && gridDim.z == 1; */"
    info = kernel_info("k.cu", lower(HEAD + fixed + body))
    assert info.threads == 6 and show_prog(info.program) == "sync"


F = "__device__ void f(grid_group g) { g.sync(); }\n"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (F + "__global__ void k() { f(this_grid()); }", "'this_grid' of the"),
        (F + "__global__ void k() { grid_group g = this_grid(); f(g); }", "as a value"),
        ("__global__ void k(int *a) { a[0] = this_grid().is_valid(); }", "'is_valid()'"),
        (
            "__device__ grid_group mine() { return this_grid(); }\n"
            "__global__ void k() { grid_group g = mine(); }",
            "initialiser",
        ),
        ("__global__ void k() { grid_group g = this_grid(); g.size(); }", "'size()' as a statement"),
    ],
)
def test_what_is_not_supported_of_the_groups_is_named(text: str, words: str) -> None:
    with pytest.raises(SpecError, match=words.replace("(", r"\(").replace(")", r"\)")):
        parse_text(HEAD + text, "k.cu")
