"""Replaying refuted VCs (`interp.replay_cex`), the replay queries, and solver-based inputs."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from hoaregpu.cli import main
from hoaregpu.driver import KernelResult, VerifyOptions, load_kernels, prepare_kernel, solve
from hoaregpu.interp import test_kernel
from hoaregpu.interp.cex_model import state_from_model
from hoaregpu.interp.generate import admissible, sampling_generator
from hoaregpu.interp.replay_cex import ReplayVerdict, replay_counterexample, replay_results
from hoaregpu.interp.solver_inputs import AutoInputs, SolverInputs
from hoaregpu.report import counterexample
from hoaregpu.solvers import Outcome
from hoaregpu.vc.kinds import VcKind

ROOT = Path(__file__).resolve().parents[2]
SPECS = ROOT / "specs"
DATA = Path(__file__).resolve().parent / "data"


def solved(path: Path) -> KernelResult:
    (kernel,) = load_kernels(str(path))
    return solve([prepare_kernel(str(path), kernel, None)], VerifyOptions(jobs=2))[0]


def refuted(k: KernelResult) -> list[tuple[VcKind, int, ReplayVerdict]]:
    out = []
    for r in replay_results([k])[0].results:
        if r.result.outcome is Outcome.REFUTED:
            assert r.replay is not None
            out.append((r.vc.origin.kind, r.vc.origin.span.line, r.replay))
    return out


def test_off_by_one_is_confirmed() -> None:
    [(kind, _, verdict)] = refuted(solved(SPECS / "bug_off_by_one.cu"))
    assert kind is VcKind.POSTCONDITION
    assert verdict.confirmed
    assert "postcondition (ensures) does not hold" in verdict.note
    assert verdict.note.startswith("confirmed by execution: ")


def test_loop_invariant_preserved_bug_is_confirmed() -> None:
    """`acc <= 2` fails on the third iteration from the initial state itself."""
    path = SPECS / "bug_invariant_not_preserved.cu"
    expected = path.read_text().splitlines()[0].split("failed", 1)[1].split()
    [(kind, line, verdict)] = refuted(solved(path))
    assert [f"{kind.value}:{line}"] == expected
    assert verdict.confirmed and "[loop-invariant]" in verdict.detail


def test_true_but_not_inductive_invariant_is_honestly_not_reproduced() -> None:
    results = refuted(solved(DATA / "weak_invariant.cu"))
    assert sorted((k.value, line) for k, line, _ in results) == [
        ("loop-invariant-preserved", 10),
        ("postcondition", 4),
    ]
    for _, _, verdict in results:
        assert not verdict.confirmed
        assert verdict.note.startswith(
            "not reproduced by execution from the initial state: the invariant may be too weak"
        )


def test_replay_queries_are_hidden_but_complete() -> None:
    k = solved(SPECS / "bug_off_by_one.cu")
    r = next(r for r in k.results if r.result.outcome is Outcome.REFUTED)
    hidden = [q for q in r.vc.queries if q.replay]
    assert hidden and all(q.state in (None, "initially") for q in hidden)
    shown = counterexample(r.vc.queries, r.result.values)
    assert shown[0].startswith("counterexample: blockDim.x = 4, j = ")
    assert len(shown) == 2  # the hidden queries add no lines
    state = state_from_model(k.prepared.kernel, 4, r.vc.queries, r.result.values)
    assert set(state.shared) == {"a", "b", "c", "n"}
    assert (0,) in state.shared["a"].cells and (1,) in state.shared["c"].cells  # the index window


def test_replay_never_raises() -> None:
    k = solved(SPECS / "bug_off_by_one.cu")
    r = next(r for r in k.results if r.result.outcome is Outcome.REFUTED)
    v = replay_counterexample(k.prepared.kernel, r.vc.origin, r.vc.queries, ())
    assert not v.confirmed and v.note.startswith("replay failed: ")
    bad = tuple("x" for _ in r.vc.queries)
    v = replay_counterexample(k.prepared.kernel, r.vc.origin, r.vc.queries, bad)  # type: ignore[arg-type]
    assert not v.confirmed and v.note.startswith(("replay failed", "not reproduced"))


def test_verify_json_and_no_replay(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(SPECS / "bug_off_by_one.cu")
    assert main(["verify", path, "--json", "--no-cache", "-j", "2"]) == 1
    doc = json.loads(capsys.readouterr().out)
    [vc] = [v for v in doc["kernels"][0]["vcs"] if v["outcome"] == "refuted"]
    assert vc["replay"]["confirmed"] is True and "postcondition" in vc["replay"]["detail"]
    assert main(["verify", path, "--no-replay", "--no-cache", "-j", "2"]) == 1
    out = capsys.readouterr().out
    assert "by execution" not in out
    assert main(["verify", path, "--no-cache", "-j", "2"]) == 1
    assert "note: confirmed by execution: postcondition (ensures) does not hold" in capsys.readouterr().out


def test_solver_inputs_hit_a_hard_requires() -> None:
    (kernel,) = load_kernels(str(DATA / "hard_requires.cu"))
    rng = random.Random(0)
    assert all(sampling_generator(kernel, 2, rng) is None for _ in range(3))
    gen = SolverInputs()
    states = [gen(kernel, 2, random.Random(i)) for i in range(5)]
    assert all(s is not None and admissible(kernel, s) for s in states)
    assert {s.shared["n"].get(()) for s in states if s is not None} == {12345}
    assert len({s.shared["a"].get((0,)) for s in states if s is not None}) > 1  # varied
    r = test_kernel(kernel, (1, 3), 10, seed=1, generator=AutoInputs())
    assert not r.ok and r.counterexample is not None
    assert r.counterexample.inputs["m"] == 4117


def test_undecided_vc_gets_execution_evidence_only_when_a_run_violates_its_clause() -> None:
    """bug_wrong_index's preservation VC is undecided by both solvers; random runs show
    that very invariant violated. A correct kernel's clause gets no evidence."""
    from hoaregpu.driver import load_kernels
    from hoaregpu.errors import Span
    from hoaregpu.interp.replay_cex import execution_evidence
    from hoaregpu.transform import make_monotonic
    from hoaregpu.vc.kinds import Origin, VcKind

    (bug,) = load_kernels("specs/bug_wrong_index.cu")
    origin = Origin(VcKind.LOOP_INVARIANT_PRESERVED, Span("specs/bug_wrong_index.cu", 13, 9), "H-WHILE")
    evidence = execution_evidence(make_monotonic(bug), origin, 4)
    assert evidence is not None and evidence.confirmed
    assert "specs/bug_wrong_index.cu:13:9" in evidence.detail and "[loop-invariant]" in evidence.detail

    other_clause = Origin(VcKind.LOOP_INVARIANT_PRESERVED, Span("specs/bug_wrong_index.cu", 11, 9), "H-WHILE")
    assert execution_evidence(make_monotonic(bug), other_clause, 4) is None

    (good,) = load_kernels("specs/vector_add_fixed4.cu")
    post = Origin(VcKind.POSTCONDITION, Span("specs/vector_add_fixed4.cu", 5, 5), "H-CONSEQ")
    assert execution_evidence(make_monotonic(good), post, 4) is None


def test_a_run_that_violates_the_clause_of_an_undecided_vc_fails_the_kernel() -> None:
    """bug_wrong_index's preservation VC, taken as a solver timeout: random runs violate that
    very clause, so the kernel fails (exit 1) and the reports say that a run violates it,
    while the VC keeps the solver's answer; a correct clause left undecided gets no run."""
    from hoaregpu.prepared import RunResult, VcResult
    from hoaregpu.report import render_json, render_text
    from hoaregpu.solvers import SolverResult

    path = str(SPECS / "bug_wrong_index.cu")
    (kernel,) = load_kernels(path)
    prepared = prepare_kernel(path, kernel, None)

    def answer(kind: VcKind, line: int) -> SolverResult:
        if kind is VcKind.LOOP_INVARIANT_PRESERVED and line in (11, 13):
            return SolverResult(Outcome.TIMEOUT, "z3", 10.0, message="timeout after 10.0 s")
        return SolverResult(Outcome.PROVED, "z3", 0.1)

    given = KernelResult(
        prepared, tuple(VcResult(vc, answer(vc.origin.kind, vc.origin.span.line)) for vc in prepared.vcs)
    )
    assert given.verdict == "unknown"
    (k,) = replay_results([given])
    preserved = {
        r.vc.origin.span.line: r for r in k.results if r.vc.origin.kind is VcKind.LOOP_INVARIANT_PRESERVED
    }
    assert preserved[13].violated_by_run and preserved[13].result.outcome is Outcome.TIMEOUT
    assert not preserved[11].violated_by_run  # `k >= threadIdx.x` holds in every run
    assert k.verdict == "failed"
    run = RunResult((k,), ())
    assert run.exit_code == 1
    text = render_text(run)
    assert (
        "13:9: error: loop invariant might not be preserved: a run violates it (the VC is not decided" in text
    )
    assert "11:9: warning: loop invariant might not be preserved: not decided (timeout" in text
    assert "1 of them violated by a run" in text
    vcs = json.loads(render_json(run))["kernels"][0]["vcs"]
    (vc,) = [v for v in vcs if v["line"] == 13 and v["kind"] == "loop-invariant-preserved"]
    assert vc["outcome"] == "timeout" and vc["violated_by_run"]["confirmed"]


def test_race_evidence_comes_from_runs_that_stop_at_a_race() -> None:
    """The missing barrier of the tiled multiplication: a race VC gets evidence from runs
    that fail at a race (runs for other VCs go on past races), and it names that race."""
    from hoaregpu.interp.replay_cex import execution_evidence

    path = str(SPECS / "showcase" / "bug_matmul_tiled_small_barrier.cu")
    (kernel,) = load_kernels(path)
    prepared = prepare_kernel(path, kernel, None)
    (race,) = [vc for vc in prepared.vcs if vc.origin.kind is VcKind.DATA_RACE and vc.origin.span.line == 20][
        :1
    ]
    evidence = execution_evidence(prepared.kernel, race.origin, prepared.launch, 10.0)
    assert evidence is not None and evidence.confirmed and "data race on Bs" in evidence.detail


def test_a_clause_violated_by_a_run_is_shown_false() -> None:
    """An allow-unknown line excuses the solver, not a clause that a run showed false; such a
    clause meets an expected failure (the kernel fails), the solver undecided."""
    from hoaregpu.expectations import mismatches, parse_expectation

    verified = parse_expectation("// expect: verified\n// allow-unknown: z3 postcondition:4 -- slow\n")
    failing = parse_expectation("// expect: failed postcondition:4\n")
    assert verified is not None and failing is not None
    undecided = [("postcondition", 4, Outcome.TIMEOUT)]
    assert mismatches(verified, undecided, "z3", [("postcondition", 4)]) == [
        "a run violates postcondition:4, expected proved"
    ]
    assert mismatches(failing, undecided, "z3", [("postcondition", 4)]) == []
    assert mismatches(verified, undecided, "z3") == []
    assert mismatches(failing, undecided, "z3") == [
        "postcondition:4 timeout, expected refuted (no allow-unknown for z3)"
    ]


def test_the_replay_deadline_counts_cpu_time_not_waiting() -> None:
    """A loaded machine must not change a replay's verdict: waiting does not use the budget,
    work does (a showcase race went unconfirmed under a wall-clock budget)."""
    import time

    from hoaregpu.interp.replay_cex import _deadline, _Timeout

    with _deadline(0.2):
        time.sleep(0.4)  # no CPU time: no timeout
    with pytest.raises(_Timeout), _deadline(0.2):
        while True:
            pass


def test_the_last_small_model_puts_each_arrays_cells_in_a_range_of_their_own() -> None:
    """A stencil race whose model had every cell 0 (from z3), or 1 (the small models'
    variety), showed in no run: the write left the cell as it was, which races with no read
    (Definition 5.4(a)). The last candidate keeps the arrays apart, so a copied value changes
    the cell (with it, that replay was confirmed)."""
    from hoaregpu.driver import prepare
    from hoaregpu.interp.cex_model import _bounds, _query_texts

    (k,), errors = prepare(["specs/showcase/bug_stencil_race.cu"], None)
    assert not errors
    vc = next(v for v in k.vcs if v.origin.kind.value == "data-race" and v.origin.span.line == 19)
    texts = _query_texts(vc.script)
    assert texts is not None
    bounds = _bounds(vc.queries, texts, True, cell_low=1, apart=True)
    ranges: dict[str, set[str]] = {}  # array -> the low ends of its cells' bounds
    for q, text in zip(vc.queries, texts, strict=True):
        if q.var and q.state == "initially" and not q.smt.is_constant():
            bound = next(b for b in bounds if f" {text})" in b)
            ranges.setdefault(q.var, set()).add(bound.split("(<= ")[1].split(" ")[0])
    lows = sorted(int(low) for lows in ranges.values() for low in lows)
    assert {"in", "s"} <= ranges.keys() and all(len(v) == 1 for v in ranges.values()), ranges
    assert len(set(lows)) == len(ranges) and lows[0] == 1  # one range per array, disjoint
