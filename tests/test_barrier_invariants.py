"""`barrier invariant` clauses: proved at the barrier, then a cut (the memory they read is
forgotten and they are assumed of it), so that later VCs no longer carry its history."""

from __future__ import annotations

from pathlib import Path

import pytest
from pipeline_kit import PROVED, REFUTED, lower, verdicts, verified

from hoaregpu import core
from hoaregpu.errors import SpecError
from hoaregpu.pretty import show_stmt
from hoaregpu.report import assumption_lines

CUT = """
//@ requires blockDim.x == 4; requires gridDim.x == 1; ensures ENSURES;
__global__ void k(int *a, int *b, int *c) {
    if (threadIdx.x == 0) { a[0] = 1; b[0] = 2; b[1] = c[0]; }
    //@ barrier invariant INVARIANT;
    __syncthreads();
}
"""


def kernel_with(ensures: str, invariant: str = "b[0] == 2 && b[1] == c[0]") -> str:
    return CUT.replace("ENSURES", ensures).replace("INVARIANT", invariant)


def test_lowered_as_checks_then_a_cut_of_the_memory_read() -> None:
    k = lower(kernel_with("true", "b[0] == 2 && b[1] == c[0] && \\old(a[0]) == \\old(a[0])"))
    stmts = [s for s in core.statements(k.body) if isinstance(s, core.Assert | core.Assume)]
    check, cut = stmts[-2:]
    assert isinstance(check, core.Assert) and check.check is core.CheckKind.BARRIER_INVARIANT
    # b and c read in the current state; a only under \old: kept. (c is never written: the
    # VCs keep it, `vc.wp.vc_assume`.)
    assert isinstance(cut, core.Assume) and cut.forget == ("b", "c")
    assert any("forget b, c; assume" in line for line in show_stmt(k.body))


def test_the_invariant_carries_what_follows() -> None:
    # b[0], b[1] from the invariant; a[0] (not read by it) keeps its value; c (read, never
    # written) keeps its initial contents
    got = verdicts(kernel_with("a[0] == 1 && b[0] == 2 && b[1] == c[0] && c[2] == \\old(c[2])"), 4)
    assert [(v.kind, v.outcome) for v in got if v.kind in ("barrier-invariant", "postcondition")] == [
        ("barrier-invariant", PROVED),
        ("postcondition", PROVED),
    ]


def test_what_the_invariant_does_not_say_is_forgotten() -> None:
    # b[2] is never written, but b is forgotten at the barrier: only the invariant is known
    got = verdicts(kernel_with("b[2] == \\old(b[2])"), 4)
    post = [v for v in got if v.kind == "postcondition"]
    assert [v.outcome for v in post] == [REFUTED]


def test_a_wrong_invariant_is_refuted_at_the_barrier() -> None:
    got = verdicts(kernel_with("b[0] == 2", "b[0] == 3"), 4)
    assert [(v.kind, v.line, v.outcome) for v in got if v.kind == "barrier-invariant"] == [
        ("barrier-invariant", 4, REFUTED)
    ]


def test_several_clauses_are_assumed_together(tmp_path: Path) -> None:
    two = "//@ barrier invariant b[0] == 2;\n    //@ barrier invariant b[1] == c[0];"
    src = CUT.replace("//@ barrier invariant INVARIANT;", two)
    src = src.replace("ENSURES", "b[0] == 2 && b[1] == c[0]")
    (result,) = verified(tmp_path, src).values()
    assert result.verdict == "verified"
    kinds = sorted(r.vc.origin.kind.value for r in result.results)
    assert kinds.count("barrier-invariant") == 2
    # the cut is no assumption of the user's: the report lists none
    assert not assumption_lines(result)


@pytest.mark.parametrize(
    "body",
    [
        "//@ barrier invariant b[0] == 2;\n    b[0] = 1;",
        "//@ barrier invariant b[0] == 2;",
    ],
)
def test_only_right_before_a_barrier(body: str) -> None:
    src = f"__global__ void k(int *b) {{\n    {body}\n}}\n"
    with pytest.raises(SpecError) as err:
        lower(src)
    assert err.value.message == (
        "'barrier invariant' may only appear in an annotation right before a barrier ('__syncthreads();')"
    )
    assert (err.value.span.line, err.value.span.col) == (2, 9)


def test_locals_out_of_scope_are_forgotten_too() -> None:
    # x's scope has ended at the barrier (dead); y is still visible, and kept
    k = lower("""
        __global__ void k(int *b) {
            int y = 1;
            if (threadIdx.x == 0) { int x = b[1]; b[0] = x; }
            //@ barrier invariant b[0] == b[1];
            __syncthreads();
            b[2] = y;
        }
        """)
    (cut,) = [s for s in core.statements(k.body) if isinstance(s, core.Assume)]
    assert cut.forget == ("b", "x")


def test_a_run_reports_a_false_invariant_and_goes_on() -> None:
    # the cut's assumption is not checked again at run time: the clause's own check reports
    # it, and the run is a failure of the kernel, not one discarded outside an assumption
    from hoaregpu.interp.results import BARRIER_INVARIANT, FAILED
    from hoaregpu.interp.run import run_kernel

    src = kernel_with("true", "b[0] == 3")
    run = run_kernel(lower(src), 4, {"a": [0], "b": [0, 0], "c": [5]})
    assert run.status == FAILED
    assert [(v.kind, v.span.line if v.span else None) for v in run.failures] == [(BARRIER_INVARIANT, 4)]


def test_a_refuted_invariant_is_confirmed_by_execution(tmp_path: Path) -> None:
    from hoaregpu.interp.replay_cex import replay_results

    (result,) = replay_results(list(verified(tmp_path, kernel_with("b[0] == 2", "b[0] == 3")).values()))
    (bad,) = [r for r in result.results if r.vc.origin.kind.value == "barrier-invariant"]
    assert bad.result.outcome.value == "refuted"
    assert bad.replay is not None and bad.replay.confirmed, bad.replay
