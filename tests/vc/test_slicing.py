"""Slices of VCs (`vc.slicing`): a weaker VC made of the conjuncts of the path that the goal
depends on; constant in size for a loop among N sequential loops, while the path grows."""

from __future__ import annotations

from pathlib import Path

from pipeline_kit import decide, kernel, verified
from pysmt.fnode import FNode

from hoaregpu.driver import dump_smt, fresh_env, load_kernels, prepare_kernel
from hoaregpu.solvers import Outcome, SolverOptions, SolveTask, solve_many
from hoaregpu.vc.generate import Vc, generate
from hoaregpu.vc.goals import path_of
from hoaregpu.vc.kinds import VcKind
from hoaregpu.vc.slicing import Slicer

SPECS = Path(__file__).resolve().parents[2] / "specs"


def loops(k: int) -> str:
    body = "\n".join(
        f"    /*@ loop invariant 0 <= i{i} && i{i} <= n; */\n"
        f"    for (int i{i} = 0; i{i} < n; i{i}++) {{ a[tid] = a[tid] + 1; }}"
        for i in range(k)
    )
    return f"""/*@ requires n >= 0; ensures a[tid] >= 0; */
__global__ void k(int *a, int n) {{
    int x = a[tid];
    int y = x + 1;
{body}
    //@ assert y == x + 1;
}}
"""


def _conjuncts(vc: Vc) -> int:
    return sum(len(h.args()) if h.is_and() else 1 for h in path_of(vc.hyps))


def _last(vcs: list[Vc], kind: VcKind) -> Vc:
    return [vc for vc in vcs if vc.kind is kind][-1]


def test_a_loops_slice_is_as_large_with_5_loops_before_it_as_with_20() -> None:
    sizes = {}
    for k in (5, 20):
        with fresh_env() as env:
            vcs = generate(kernel(loops(k)), env)
            vc = _last(vcs, VcKind.LOOP_INVARIANT_PRESERVED)
            premises = Slicer(env, (v.hyps for v in vcs)).premises(vc.hyps, vc.obligation)
            assert premises is not None
            sizes[k] = (len(premises), _conjuncts(vc))
    assert sizes[5][0] == sizes[20][0]  # the loop and its head only
    assert sizes[20][1] > sizes[5][1]  # while the path grows with the loops before
    assert sizes[20][0] < sizes[20][1]


def test_a_slice_keeps_the_chain_of_definitions_and_the_requires_and_is_still_valid() -> None:
    with fresh_env() as env:
        vcs = generate(kernel(loops(3)), env)
        slicer = Slicer(env, (vc.hyps for vc in vcs))
        assertion = _last(vcs, VcKind.ASSERTION)
        # y's definition reads x's: both kept, though three loops lie between them and the goal
        premises = slicer.premises(assertion.hyps, assertion.obligation)
        assert premises is not None
        assert slicer.premises(assertion.hyps, assertion.obligation, most=len(premises) - 1) is None
        names = {s.symbol_name().split("!")[0] for p in premises for s in p.get_free_variables()}
        assert {"x", "y"} <= names
        assert not any(name.startswith("i") for name in names)  # the loops' counters: not needed
        entry = next(vc for vc in vcs if vc.kind is VcKind.LOOP_INVARIANT_ENTRY)
        # `0 <= 0 <= n` needs `n >= 0`, a conjunct about a hub only: kept
        formulas = [slicer.formula(vc.hyps, vc.obligation) for vc in (assertion, entry)]
        assert decide(formulas) == [Outcome.PROVED, Outcome.PROVED]


def test_a_slice_is_weaker_a_refutation_of_it_says_nothing_of_the_vc() -> None:
    # the dropped hypothesis (i0's invariant after the first loop, relating i0 and n only
    # through the hub n) is what proves `n >= 0` here: the slice alone is not valid
    src = """/*@ ensures n >= 0; */
__global__ void k(int *a, int n) {
    int i = 0;
    /*@ loop invariant 0 <= i && i <= n; */
    while (i < n) { i = i + 1; }
}
"""
    with fresh_env() as env:
        vcs = generate(kernel(src), env)
        post = _last(vcs, VcKind.POSTCONDITION)
        sliced = Slicer(env, (vc.hyps for vc in vcs)).formula(post.hyps, post.obligation)
        assert decide([post.formula, sliced]) == [Outcome.PROVED, Outcome.REFUTED]


def test_houdini_proves_on_slices_what_the_whole_vc_left_undecided() -> None:
    # z3 runs out of its resource limit on the whole preservation VC of this candidate (the
    # kernel's other facts about k), and proves its slice at once
    path = str(SPECS / "all_none.cu")
    (k,) = load_kernels(path)
    prepared = prepare_kernel(path, k, None)
    assert any("k % ntid == tid % ntid" in text for _, text in prepared.inferred_invariants)


def test_the_late_vcs_of_a_long_kernel_carry_their_slice_and_it_proves(tmp_path: Path) -> None:
    path = tmp_path / "loops.cu"
    path.write_text(loops(40))
    (k,) = load_kernels(str(path))
    prepared = prepare_kernel(str(path), k, None, check_races=False)
    sliced = [vc for vc in prepared.vcs if vc.slices]
    assert prepared.vcs[0].slices == ()  # a short path: no slice
    assert len(sliced) > len(prepared.vcs) // 2
    assert all(len(vc.slices[0]) < len(vc.script) / 4 for vc in sliced)
    invariants = [vc for vc in sliced if vc.origin.kind is not VcKind.POSTCONDITION]  # (a false one)
    tasks = [SolveTask(vc.slices[0], "z3") for vc in invariants[-3:]]
    dumped = dump_smt([prepared], tmp_path / "dump")
    assert sum(p.name.endswith(".slice.smt2") for p in dumped) == len(sliced)
    assert [r.outcome for r in solve_many(tasks, SolverOptions(timeout=20.0))] == [Outcome.PROVED] * 3


def test_houdini_keeps_a_candidate_whose_slice_has_a_countermodel_but_whose_vc_holds(
    tmp_path: Path,
) -> None:
    # `x <= m` at the loop's entry needs `n <= m`, which reaches it only through y (its
    # definition and the assumption): the slice leaves them out, the whole VC proves it
    src = """__global__ void k(int *a, int n, int m) {
    int y = n;
    //@ assume y <= m;
    int x = n;
    while (x < m) { x = x + 1; }
    //@ assert x == m;
}
"""
    (result,) = verified(tmp_path, src, check_races=False).values()
    assert [r.result.outcome for r in result.results] == [Outcome.PROVED] * len(result.results)


def _names(premises: list[FNode] | None) -> set[str]:
    assert premises is not None
    return {s.symbol_name().split("!")[0] for p in premises for s in p.get_free_variables()}


def test_a_definition_is_kept_for_the_symbol_it_defines_not_for_what_it_reads() -> None:
    # w's definition reads y, but the goal is about y: whatever y is, some w satisfies it
    src = """__global__ void k(int *a) {
    int x = a[tid];
    int y = x + 1;
    int w = y * y * y;
    a[tid] = w;
    //@ assert y == x + 1;
}
"""
    with fresh_env() as env:
        vcs = generate(kernel(src), env)
        slicer = Slicer(env, (vc.hyps for vc in vcs))
        assertion = _last(vcs, VcKind.ASSERTION)
        names = _names(slicer.premises(assertion.hyps, assertion.obligation))
        assert {"x", "y"} <= names
        assert "w" not in names
        assert decide([slicer.formula(assertion.hyps, assertion.obligation)]) == [Outcome.PROVED]


SUM_LOOP = """/*@ requires n >= 0; */
__global__ void k(int *a, int n) {
    int acc = 0;
    /*@ loop invariant 0 <= i && i <= n;
        loop invariant acc == \\sum(0, i - 1, \\lambda int j; a[j]);
    */
    for (int i = 0; i < n; i++) { acc = acc + a[i]; }
    //@ assert acc == \\sum(0, n - 1, \\lambda int j; a[j]);
}
"""


def test_the_axioms_of_a_sum_are_kept_only_for_goals_that_reach_the_sum() -> None:
    # the loop invariant's sum makes every VC after it closed with the sum's axioms
    # (`Hyp.defines`): the counter's bound does not need them, the sum's own goal does
    with fresh_env() as env:
        vcs = generate(kernel(SUM_LOOP), env)
        slicer = Slicer(env, (vc.hyps for vc in vcs))
        bound = next(vc for vc in vcs if vc.kind is VcKind.LOOP_INVARIANT_PRESERVED)
        total = _last(vcs, VcKind.ASSERTION)
        assert bound.hyps is not None and bound.hyps.defines  # the axioms: the last hypothesis
        assert not any(n.startswith("agg") for n in _names(slicer.premises(bound.hyps, bound.obligation)))
        assert any(n.startswith("agg") for n in _names(slicer.premises(total.hyps, total.obligation)))
        formulas = [slicer.formula(vc.hyps, vc.obligation) for vc in (bound, total)]
        assert decide(formulas) == [Outcome.PROVED, Outcome.PROVED]


def test_a_lean_slice_leaves_out_the_store_of_an_array_the_goal_reads_only_through_an_assertion() -> None:
    # the last assertion reads b, whose store reads s; s's own store is left out (its cells
    # are known from the assumed assertion), and the lean slice is still valid. Without the
    # assertion, the same lean slice is not valid: it is a weaker VC, never a different one.
    def src(said: str) -> str:
        return f"""__global__ void k(int *a, int *b) {{
    __shared__ int s[64];
    s[tid] = a[tid];
    {said}
    b[tid] = s[tid] + 1;
    //@ assert b[tid] == a[tid] + 1;
}}
"""

    lean_valid = []
    for said in ("//@ assert s[tid] == a[tid];", ""):
        with fresh_env() as env:
            vcs = generate(kernel(src(said)), env)
            slicer = Slicer(env, (vc.hyps for vc in vcs))
            goal = _last(vcs, VcKind.ASSERTION)
            plain = slicer.premises(goal.hyps, goal.obligation)
            lean = slicer.premises(
                goal.hyps, goal.obligation, opaque=lambda s: s.symbol_name().split("!")[0] == "s"
            )
            assert plain is not None and lean is not None and len(lean) < len(plain)
            assert decide([slicer.formula(goal.hyps, goal.obligation)]) == [Outcome.PROVED]
            formula = slicer.formula(
                goal.hyps, goal.obligation, len(plain), opaque=lambda s: s.symbol_name().split("!")[0] == "s"
            )
            assert formula is not None
            lean_valid.append(decide([formula])[0])
    assert lean_valid[0] is Outcome.PROVED and lean_valid[1] is not Outcome.PROVED


def test_a_lean_slice_leaves_out_the_quantified_axioms_of_a_sum_and_keeps_their_instances() -> None:
    with fresh_env() as env:
        vcs = generate(kernel(SUM_LOOP), env)
        slicer = Slicer(env, (vc.hyps for vc in vcs))
        total = _last(vcs, VcKind.ASSERTION)
        plain = slicer.premises(total.hyps, total.obligation)
        lean = slicer.premises(total.hyps, total.obligation, axioms=False)
        assert plain is not None and lean is not None
        gone = [p for p in plain if p not in lean]
        assert gone and all(p.is_forall() and any(n.startswith("agg") for n in _names([p])) for p in gone)
        assert any(n.startswith("agg") for n in _names(lean))  # the instances stay


def test_a_vc_with_a_lean_slice_keeps_its_plain_slice_first(tmp_path: Path) -> None:
    # the lean slice is raced beside the plain one, never instead of it: what it leaves out
    # (the stores of arrays the goal reads only through assumed facts) may be what a solver
    # needs (the Blelloch scan's barrier invariants at 1,024 threads prove only on the plain)
    padding = "\n".join(
        f"    int x{i} = a[tid] + {i};\n    //@ assert x{i} == a[tid] + {i};" for i in range(12)
    )
    path = tmp_path / "lean.cu"
    path.write_text(f"""__global__ void k(int *a, int *b) {{
    __shared__ int s[64];
    s[tid] = a[tid];
    //@ assert s[tid] == a[tid];
{padding}
    b[tid] = s[tid] + 1;
    //@ assert b[tid] == a[tid] + 1;
}}
""")
    (k,) = load_kernels(str(path))
    prepared = prepare_kernel(str(path), k, None, check_races=False)
    goal = [vc for vc in prepared.vcs if vc.origin.kind is VcKind.ASSERTION][-1]
    assert len(goal.slices) == 2
    plain, lean = goal.slices
    assert len(lean) < len(plain) < len(goal.script)
    store = "(declare-fun s (Int) Int)"  # s before its store: read by the store's definition
    assert store in plain and store not in lean
    tasks = [SolveTask(text, "z3") for text in goal.slices]
    assert [r.outcome for r in solve_many(tasks, SolverOptions(timeout=20.0))] == [Outcome.PROVED] * 2
