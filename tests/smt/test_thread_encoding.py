"""Which thread encodings a VC gets (`smt.thread_encoding.choose`), and that they agree.

Unit tests on the encoder's decisions; no timing assertions (bench/thread_counts.py
measures the times)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from pipeline_kit import PROVED, REFUTED, decide, kernel

from hoaregpu.driver import KernelResult, VerifyOptions, fresh_env, load_kernels, prepare_kernel, verify
from hoaregpu.smt.expand import MAX_EXPANSION
from hoaregpu.smt.smtlib import script_text
from hoaregpu.smt.thread_encoding import ThreadEncoder, ThreadEncoding, choose, quantifiers, tree_quantifiers
from hoaregpu.solvers import Outcome, SolverOptions, SolveTask, solve_many
from hoaregpu.vc.generate import generate

SPECS = Path(__file__).resolve().parents[2] / "specs"
EXPANDED, SYMBOLIC = ThreadEncoding.EXPANDED, ThreadEncoding.SYMBOLIC

PLANTED = """
    /*@ requires blockDim.x == 16;
        ensures \\forall int j; 0 <= j < blockDim.x ==> a[j] == 2 * j;
    */
    __global__ void k(int *a) {
        if (threadIdx.x < 15) { a[threadIdx.x] = 2 * threadIdx.x; }
        else { a[threadIdx.x] = 2 * threadIdx.x + 1; }
    }
    """


@pytest.mark.parametrize(
    ("threads", "expected"),
    [
        (None, (SYMBOLIC,)),
        (1, (EXPANDED,)),
        (2, (EXPANDED, SYMBOLIC)),
        (16, (EXPANDED, SYMBOLIC)),
        (MAX_EXPANSION, (EXPANDED, SYMBOLIC)),
        (MAX_EXPANSION + 1, (SYMBOLIC,)),
        (1024, (SYMBOLIC,)),
    ],
)
def test_choose(threads: int | None, expected: tuple[ThreadEncoding, ...]) -> None:
    assert choose(threads) == expected


def test_symbolic_leaves_the_formula_and_expanded_removes_thread_quantifiers() -> None:
    k = kernel("""
        /*@ ensures \\forall int j; 0 <= j < blockDim.x ==> a[j] == j; */
        __global__ void k(int *a) { if (tid < 2) { a[tid] = tid; } else { a[tid] = tid; } }
        """)
    with fresh_env() as env:
        [vc] = generate(k, env, 4)
        encoder = ThreadEncoder(env)
        assert encoder.encode(vc.formula, SYMBOLIC) is vc.formula
        expanded = encoder.encode(vc.formula, EXPANDED)
        assert script_text(expanded).count("forall") < script_text(vc.formula).count("forall")


def _prepared(threads: int | None) -> list[tuple[str, tuple[str, ...], tuple[str, ...]]]:
    [k] = load_kernels(str(SPECS / "vector_add_symbolic.cu"))
    p = prepare_kernel(str(SPECS / "vector_add_symbolic.cu"), k, threads, check_races=False)
    return [(vc.script, vc.alternatives, vc.encodings) for vc in p.vcs]


def test_where_the_expansion_multiplies_quantifiers_both_encodings_race() -> None:
    """At 16 threads, the per-thread invariant `forall j. ... j % blockDim.x == tid ...`
    expands into 16 quantified facts: those VCs get both encodings."""
    vcs = _prepared(16)
    raced = [
        (script, alts) for script, alts, enc in vcs if enc == ("expanded", "symbolic") and len(alts) == 1
    ]
    # the loop-entry VCs have no thread quantifier: one script, nothing to race
    assert len(raced) == 3 and all(alts == () and enc == () for _, alts, enc in vcs[:2])
    # the primary (shown by --dump-smt, replayed) is the expansion, with more quantifiers
    assert all(quantifiers(script) > quantifiers(alts[0]) for script, alts in raced)


def test_at_8_threads_the_grid_stride_loop_races_too() -> None:
    """11 quantifiers expanded against 8 kept: raced (expanded alone took 2-6 s)."""
    assert sum(len(alts) for _, alts, _ in _prepared(8)) == 3


def test_a_marginal_growth_is_not_raced() -> None:
    """pointer_offsets.cu (8 threads): 24 quantifiers expanded against 23 kept."""
    path = SPECS / "pointer_offsets.cu"
    for k in load_kernels(str(path)):
        assert all(vc.alternatives == () for vc in prepare_kernel(str(path), k, None, check_races=False).vcs)


def test_where_the_expansion_leaves_ground_facts_it_is_alone() -> None:
    k = kernel(PLANTED)
    with fresh_env() as env:
        encoder = ThreadEncoder(env)
        for vc in generate(k, env, 16):
            script, alts, names = encoder.scripts(vc.formula, [], choose(16))
            assert alts == () and names == ()
            assert quantifiers(script) < quantifiers(script_text(vc.formula))  # it was expanded


@pytest.mark.parametrize("threads", [None, 1, 1024])
def test_other_counts_get_one_encoding(threads: int | None) -> None:
    assert all(alts == () and enc == () for _, alts, enc in _prepared(threads))


BUGGY_GRID_STRIDE = """
    /*@ requires n >= 0;
        ensures \\forall int j; 0 <= j < n ==> c[j] == a[j] + b[j];
    */
    __global__ void k(int *a, int *b, int *c, int n) {
        int k = threadIdx.x;
        /*@ loop invariant k % blockDim.x == threadIdx.x && k >= threadIdx.x;
            loop invariant \\forall int j; 0 <= j < n && j % blockDim.x == threadIdx.x && j < k
                               ==> c[j] == a[j] + b[j];
        */
        while (k < n) {
            c[k] = a[k] - b[k];
            k = k + blockDim.x;
        }
    }
    """


def test_the_encodings_agree_on_a_planted_bug_at_a_fixed_count() -> None:
    """The encodings are equivalent: no VC one proves does the other refute."""
    k = kernel(BUGGY_GRID_STRIDE)
    with fresh_env() as env:
        vcs = generate(k, env, 4)
        encoder = ThreadEncoder(env)
        by_encoding = {e: decide([encoder.encode(vc.formula, e) for vc in vcs]) for e in (EXPANDED, SYMBOLIC)}
    decided = (PROVED, REFUTED)
    pairs = list(zip(by_encoding[EXPANDED], by_encoding[SYMBOLIC], strict=True))
    # the kept quantifiers make refutations slow (a model must satisfy them): where both
    # decide, they agree, and the expansion decides every VC
    assert all(a == b for a, b in pairs if a in decided and b in decided)
    assert set(by_encoding[EXPANDED]) == {PROVED, REFUTED}
    assert PROVED in by_encoding[SYMBOLIC]


def _verdict(path: Path, threads: int) -> KernelResult:
    run = verify(
        [str(path)],
        VerifyOptions(
            solver="z3", threads=threads, solver_options=SolverOptions(timeout=20), check_races=False
        ),
    )
    assert not run.errors
    [k] = run.kernels
    return k


def test_grid_stride_loop_proves_at_16_threads() -> None:
    """The cliff of issue 14: 16 threads timed out with the expansion alone."""
    good = _verdict(SPECS / "vector_add_symbolic.cu", 16)
    assert good.verdict == "verified"
    # the loop-entry VCs have one script; the preservation of the invariants over
    # `k % blockDim.x` is what the kept quantifiers decide
    assert {r.result.encoding for r in good.results} <= {"", "expanded", "symbolic"}
    kept = [r.result.encoding for r in good.results if r.vc.origin.kind.value == "loop-invariant-preserved"]
    assert kept == ["symbolic", "symbolic"]


def test_a_planted_bug_at_16_threads_is_refuted_with_a_checked_model(tmp_path: Path) -> None:
    """The expansion alone (its thread quantifiers have quantifier-free bodies) refutes it."""
    path = tmp_path / "planted.cu"
    path.write_text(textwrap.dedent(PLANTED))
    bad = _verdict(path, 16)
    assert bad.verdict == "failed"
    refuted = [r for r in bad.results if r.result.outcome is Outcome.REFUTED]
    assert [r.vc.origin.kind.value for r in refuted] == ["postcondition"]
    assert refuted[0].result.model_checked and refuted[0].result.encoding == ""  # one script
    path.write_text(textwrap.dedent(PLANTED).replace("2 * threadIdx.x + 1", "2 * threadIdx.x"))
    assert _verdict(path, 16).verdict == "verified"


def test_alternative_scripts_are_standalone() -> None:
    """Each alternative is a complete script: the solver decides it alone as the primary."""
    script, alts, _ = _prepared(16)[-1]
    results = solve_many([SolveTask(s, "z3") for s in (script, *alts)], SolverOptions(timeout=20))
    assert [r.outcome for r in results] == [Outcome.PROVED, Outcome.PROVED]


def test_quantifiers_are_counted_on_formulas_as_printed() -> None:
    """`race_alternatives` decides without printing the first script: its count on the
    formula (a DAG) must be the printed script's (a tree), and the choice the same."""
    [k] = load_kernels(str(SPECS / "vector_add_symbolic.cu"))
    with fresh_env() as env:
        encoder = ThreadEncoder(env)
        for vc in generate(k, env, 16):
            expanded = encoder.encode(vc.formula, EXPANDED)
            assert tree_quantifiers(expanded) == quantifiers(script_text(expanded))
            _, alts, names = encoder.scripts(vc.formula, [], choose(16))
            assert encoder.race_alternatives(vc.formula, [], choose(16)) == (alts, names)
