"""Race VCs (hoaregpu.races): the instrumentation, the counterexample's words, the loop
invariants inferred for the logs, and the `--check-races` switch of `verify`."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest

from hoaregpu import core
from hoaregpu.cli import main
from hoaregpu.driver import VerifyOptions, load_kernels, prepare_kernel, verify
from hoaregpu.launch import Launch
from hoaregpu.race_instrument import PREFIX
from hoaregpu.races import instrument
from hoaregpu.report import RACE_BANNER
from hoaregpu.solvers import Outcome, SolverOptions

RACY = """\
/*@ requires blockDim.x == 4;
*/
__global__ void racy(int *a) {
    int x = a[threadIdx.x + 1];
    a[threadIdx.x] = x + 1;
}
"""

STRIDED = """\
/*@ requires blockDim.x == 4;
    requires n >= 0;
*/
__global__ void strided(int *out, int n) {
    /*@ loop invariant i >= 0; */
    for (int i = threadIdx.x; i < n; i += STEP) {
        out[i] = threadIdx.x;
    }
}
"""

READ_ONLY = """\
__global__ void copy(int *in, int x) {
    int y = in[threadIdx.x] + x;
}
"""


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def options(check: bool) -> VerifyOptions:
    return VerifyOptions(solver_options=SolverOptions(timeout=20.0), jobs=2, check_races=check)


def outcomes(path: str, check: bool) -> list[tuple[str, int, Outcome]]:
    run = verify([path], options(check))
    assert not run.errors
    return [
        (r.vc.origin.kind.value, r.vc.origin.span.line, r.result.outcome)
        for k in run.kernels
        for r in k.results
    ]


def test_a_kernel_that_writes_no_memory_is_left_alone(tmp_path: Path) -> None:
    (k,) = load_kernels(write(tmp_path, "ro.cu", READ_ONLY))
    checked, sites = instrument(k)
    assert checked == k and sites == {}


def test_the_ghost_logs_are_locals_and_the_checks_are_data_race_asserts(tmp_path: Path) -> None:
    (k,) = load_kernels(write(tmp_path, "racy.cu", RACY))
    checked, sites = instrument(k)
    ghosts = [d for d in checked.decls if d.name.startswith(PREFIX)]
    assert ghosts and all(d.kind is core.VarKind.LOCAL and d.role is core.VarRole.SYNTHETIC for d in ghosts)
    checks = [s for s in core.statements(checked.body) if isinstance(s, core.Assert)]
    assert {s.check for s in checks} == {core.CheckKind.DATA_RACE}
    assert sorted(s.span.line for s in checks if s.span) == [4, 5]  # the read, the write
    assert {site.kind for site in sites.values()} == {"read", "write"}


def test_a_read_write_race_is_refuted_only_with_race_checking(tmp_path: Path) -> None:
    path = write(tmp_path, "racy.cu", RACY)
    assert outcomes(path, check=False) == []  # no contract: nothing to prove, race assumed away
    found = outcomes(path, check=True)
    assert ("data-race", 5, Outcome.REFUTED) in found
    assert ("data-race", 4, Outcome.PROVED) in found


@pytest.mark.parametrize(("step", "racy"), [("4", False), ("2", True)])
def test_strided_loops_need_no_access_invariant(tmp_path: Path, step: str, racy: bool) -> None:
    path = write(tmp_path, f"strided{step}.cu", STRIDED.replace("STEP", step))
    found = outcomes(path, check=True)
    refuted = [(kind, line) for kind, line, o in found if o is Outcome.REFUTED]
    assert refuted == ([("data-race", 7)] if racy else [])
    assert all(o is Outcome.PROVED for _, _, o in found) or racy


def test_houdini_keeps_only_proved_candidates(tmp_path: Path) -> None:
    path = write(tmp_path, "strided.cu", STRIDED.replace("STEP", "4"))
    (k,) = load_kernels(path)
    prepared = prepare_kernel(path, k, None, check_races=True)
    inferred = [vc.origin for vc in prepared.vcs if vc.origin.span.col >= 100_000]
    assert inferred  # e.g. i % 4 == threadIdx.x % 4, and the written cell's likewise
    texts = " ".join(c for o in inferred for c in o.span.context)
    assert "hg.race.write.out.0 % 4" in texts
    assert "hg.race.write.out <= 0" not in texts  # false: the loop writes without barriers
    # Shown at its loop's line, without the marker column.
    assert all(str(o.span) == f"{path}:{o.span.line}" for o in inferred)


def test_the_report_names_both_threads_lines_and_the_cell(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "racy.cu", RACY)
    code = main(["verify", path, "--no-cache", "--jobs", "2", "--timeout", "20"])
    out = capsys.readouterr().out
    assert code == 1
    assert f"{path}:5:5: error: data race" in out
    assert "writes a[" in out and f"at {path}:5" in out and f"read it at {path}:4" in out
    assert RACE_BANNER not in out
    code = main(["verify", path, "--no-cache", "--jobs", "2", "--json", "--assume-race-free"])
    assert json.loads(capsys.readouterr().out)["assumes"] == "race-freedom"
    assert code == 0  # the race is assumed away: nothing else to prove


def test_a_barrier_orders_and_other_blocks_are_not_ordered(tmp_path: Path) -> None:
    body = """\
/*@ requires blockDim.x == 2;
    requires gridDim.x == GRID;
*/
__global__ void k(int *a, int *out) {
    if (threadIdx.x == 0) {
        a[0] = 7;
    }
    __syncthreads();
    out[blockIdx.x * 2 + threadIdx.x] = a[0];
}
"""
    one = outcomes(write(tmp_path, "one.cu", body.replace("GRID", "1")), check=True)
    assert all(o is Outcome.PROVED for _, _, o in one)
    two = outcomes(write(tmp_path, "two.cu", body.replace("GRID", "2")), check=True)
    # the blocks write the same value (tolerated), but a barrier does not order the other
    # block's write before this block's read
    assert ("data-race", 6, Outcome.PROVED) in two
    assert ("data-race", 9, Outcome.REFUTED) in two


def test_launch_is_unchanged_by_the_checks(tmp_path: Path) -> None:
    (k,) = load_kernels(write(tmp_path, "racy.cu", RACY))
    plain = prepare_kernel("racy.cu", k, None, check_races=False)
    checked = prepare_kernel("racy.cu", k, None)  # race checking is the default
    assert checked.launch == plain.launch == Launch((4, None, None))
    assert checked.kernel == plain.kernel  # the prepared kernel (replayed) has no ghosts
    assert checked.races_checked and not plain.races_checked


UNREAD = """\
/*@ requires blockDim.x == 4;
*/
__global__ void unread(int *p, int *q, int *r) {
    p[threadIdx.x] = 1;
    q[threadIdx.x] = 2;
    r[threadIdx.x] = q[threadIdx.x];
    atomicAdd(&r[0], 1);
}
"""


def test_the_race_kernel_leaves_out_stores_to_memory_nothing_reads(tmp_path: Path) -> None:
    """p is never read: its store leaves the race kernel (its check and log stay); q is read
    and r is the target of an atomic (which returns the old cell): theirs stay."""
    from hoaregpu.races import without_unread_stores

    (k,) = load_kernels(write(tmp_path, "unread.cu", UNREAD))
    checked, _ = instrument(k)
    stripped = without_unread_stores(checked)

    def stores(kernel: core.Kernel) -> list[str]:
        assigns = [s for s in core.statements(kernel.body) if isinstance(s, core.Assign)]
        return [s.target for s in assigns if not s.target.startswith(PREFIX)]

    assert sorted(stores(checked)) == ["p", "q", "r"]
    assert sorted(stores(stripped)) == ["q", "r"]
    checks = [s for s in core.statements(stripped.body) if isinstance(s, core.Assert)]
    assert len(checks) == len([s for s in core.statements(checked.body) if isinstance(s, core.Assert)])
    assert any(s.span is not None and s.span.line == 4 for s in checks)  # p's store is still checked


BENIGN = """\
/*@ requires blockDim.x == 4;
*/
__global__ void benign(int *a, int *b, int *c, int *d, int *e, int n) {
    int x = b[0];
    int y = x + 1;
    a[0] = b[1];
    c[0] = 1;
    d[0] = y;
    e[0] = n + 2;
}
"""


@pytest.mark.parametrize(
    ("benign", "tolerant"),
    [("same-value", {"a", "c", "d", "e"}), ("unread-values", {"c", "e"}), ("none", set())],
)
def test_which_same_value_writes_are_tolerated(tmp_path: Path, benign: str, tolerant: set[str]) -> None:
    """unread-values (GPUVerify's default): a value read from memory, also through locals
    (d's y = x + 1, x = b[0]), is not known to be one value at two threads; a constant and a
    parameter (never written) are."""
    from hoaregpu.races import memory_writes, tolerant_arrays

    (k,) = load_kernels(write(tmp_path, "benign.cu", BENIGN))
    written, _ = memory_writes(k)
    assert {k.decl(x).display_name for x in tolerant_arrays(k, written, benign)} == tolerant


@pytest.mark.parametrize(
    ("benign", "refuted"), [("same-value", []), ("unread-values", [6, 8]), ("none", [6, 7, 8, 9])]
)
def test_same_value_writes_race_under_gpuverify_policies(
    tmp_path: Path, benign: str, refuted: list[int]
) -> None:
    path = write(tmp_path, "benign.cu", BENIGN)
    run = verify([path], replace(options(True), benign_writes=benign))
    assert not run.errors
    lines = sorted(
        r.vc.origin.span.line
        for k in run.kernels
        for r in k.results
        if r.result.outcome is Outcome.REFUTED and r.vc.origin.span is not None
    )
    assert lines == refuted
    assert all(
        r.result.outcome is Outcome.PROVED
        for k in run.kernels
        for r in k.results
        if r.vc.origin.span.line not in refuted
    )


NO_BLOCK_INDEX = """\
__global__ void no_block_index(int *a, int *out) {
    __shared__ int s[4];
    s[threadIdx.x] = threadIdx.x;
    out[threadIdx.x + 4 * s[threadIdx.x]] = 1;
    a[threadIdx.x] = a[threadIdx.x] + 1;
}
"""


@pytest.mark.parametrize(("grid", "refuted"), [(2, [5]), (1, []), (None, [5])])
def test_blocks_a_launch_fixes_race_though_the_kernel_reads_no_block_index(
    tmp_path: Path, grid: int | None, refuted: list[int]
) -> None:
    """`--gridDim=2` on a kernel that reads neither blockIdx nor gridDim: its own VCs are
    those of one block, but thread t of each block increments a[t] (line 5), a race between
    the blocks that was verified. The `__shared__` s is per block and out's same-value
    stores are tolerated: no race there. An open grid may have several blocks too."""
    path = write(tmp_path, "nbi.cu", NO_BLOCK_INDEX)
    launch = Launch((4, 1, 1), (grid, 1, 1))
    run = verify([path], replace(options(True), threads=launch))
    assert not run.errors
    found = [
        (r.vc.origin.kind.value, r.vc.origin.span.line, r.result.outcome)
        for k in run.kernels
        for r in k.results
    ]
    # the race's check is never proved (a solver may leave it undecided on a loaded machine,
    # else it is refuted), and every other VC is proved
    for line in refuted:
        assert {o for _, n, o in found if n == line} - {Outcome.PROVED} <= {
            Outcome.REFUTED,
            Outcome.TIMEOUT,
            Outcome.UNKNOWN,
        }
        assert any(o is not Outcome.PROVED for _, n, o in found if n == line)
    assert all(o is Outcome.PROVED for _, line, o in found if line not in refuted)


def test_an_open_grid_races_between_the_blocks_of_a_kernel_that_reads_no_block_index(
    tmp_path: Path,
) -> None:
    """With the grid left open, such a kernel may run as any number of blocks: its race
    checks take two (`races.with_blocks`), the race is confirmed by running two blocks, and
    the report says how to state that the kernel runs as one block, which verifies it."""
    from hoaregpu.interp.replay_cex import replay_results
    from hoaregpu.report import render_text

    text = "__global__ void inc(int *a) {\n    a[threadIdx.x] += 1;\n}\n"
    run = verify([write(tmp_path, "inc.cu", text)], options(True))
    assert not run.errors
    (k,) = replay_results(run.kernels)
    (race,) = [r for r in k.results if r.result.outcome is Outcome.REFUTED]
    assert (race.vc.origin.kind.value, race.vc.origin.span.line) == ("data-race", 2)
    assert race.replay is not None and race.replay.confirmed
    assert "gridDim=[2,1,1]" in race.replay.detail
    report = render_text(replace(run, kernels=(k,)))
    assert "requires gridDim.x == 1;" in report
    assert "of block 0" in report and "of block 1" in report
    one = "/*@ requires gridDim.x == 1; */\n" + text
    assert {o for _, _, o in outcomes(write(tmp_path, "one.cu", one), True)} == {Outcome.PROVED}


@pytest.mark.parametrize(("grid", "blocks"), [((None, None, None), (2, None, None)), ((8, 3, 1), (2, 2, 1))])
def test_the_race_checks_take_two_of_the_blocks_a_kernel_cannot_tell_apart(
    tmp_path: Path, grid: tuple[int | None, int | None, int | None], blocks: tuple[int | None, ...]
) -> None:
    """Two blocks per unread block coordinate that may have several (docs/races.md: exact,
    since such blocks run on their own up to the first race); an open `.y` stays 1."""
    from hoaregpu.grid import live_coords
    from hoaregpu.launch import Coord
    from hoaregpu.races import with_blocks

    (k,) = load_kernels(write(tmp_path, "nbi.cu", NO_BLOCK_INDEX))
    kept, launch = with_blocks(k, Launch((4, 1, 1), grid))
    assert launch.grid == blocks
    assert {c for c in live_coords(kept) if c.block} == {
        Coord(True, axis) for axis in range(3) if (blocks[axis] or 1) > 1
    }
    # `__shared__` memory is per block of those coordinates
    shared = next(d for d in kept.decls if d.role is core.VarRole.SHARED_ARRAY)
    assert shared.dim == 1 + sum(1 for b in blocks if (b or 1) > 1)
    # a grid fixed at one block keeps the kernel as it is
    assert with_blocks(k, Launch((4, 1, 1), (1, 1, 1)))[0] is k


def test_a_size_fixed_at_one_makes_its_coordinate_a_constant(tmp_path: Path) -> None:
    from hoaregpu.grid import live_coords
    from hoaregpu.launch import Coord

    text = (
        "/*@ requires gridDim.x == 1; */\n"
        "__global__ void k(int *a) {\n    a[blockIdx.x * blockDim.x + threadIdx.x] = 0;\n}\n"
    )
    (k,) = load_kernels(write(tmp_path, "k.cu", text))
    assert Coord(True, 0) not in live_coords(k)
    (open_,) = load_kernels(write(tmp_path, "o.cu", text.replace("requires gridDim.x == 1;", "")))
    assert Coord(True, 0) in live_coords(open_)


def test_a_race_between_float_stores_of_512_threads_is_confirmed_by_running_them(tmp_path: Path) -> None:
    """The racing values are `(float)` of thread ids, an uninterpreted conversion, so the
    refutation counts only when execution confirms it (`driver.settle_approximate`); with 512
    threads it used to stay undecided (replay stopped at 64 threads; GPUVerify's
    param_values/value_causing_race)."""
    from hoaregpu.interp.replay_cex import replay_results

    text = """\
/*@ requires blockDim.x == 512; requires gridDim.x == 1;
    requires x >= 0; requires x < 1000;
*/
__global__ void example(float *A, int x) {
    if (threadIdx.x == 15) { A[threadIdx.x + x] = threadIdx.x; }
    if (threadIdx.x == 200) { A[threadIdx.x] = threadIdx.x; }
}
"""
    run = verify([write(tmp_path, "value_race.cu", text)], options(True))
    assert not run.errors
    (k,) = replay_results(run.kernels)
    (race,) = [r for r in k.results if r.result.outcome is not Outcome.PROVED]
    assert race.vc.approximations
    assert (race.vc.origin.kind.value, race.result.outcome) == ("data-race", Outcome.REFUTED)
    assert race.replay is not None and race.replay.confirmed and "512 threads" in race.replay.detail


def test_a_shared_memory_race_of_a_two_block_check_names_both_threads_in_one_block() -> None:
    """The race checks of a kernel that reads no block index take two blocks; a race in
    `__shared__` memory is between two threads of one block, and the note says so."""
    from hoaregpu.report import render_text

    path = Path(__file__).resolve().parents[1] / "specs" / "races" / "race_shared_missing_barrier.cu"
    run = verify([str(path)], options(True))
    text = render_text(run)
    note = r"race: thread \d of block \d reads s\S* at .*; thread \d of the same block wrote it"
    assert re.search(note, text)
