"""Forward VC generation (`vc.wp`, `vc.passive`) and the kernel's shared SMT text
(`smt.script`): program order of the VCs, hypotheses shared not copied, linear text, no
recursion on the program's nesting, standalone per-VC scripts that solvers answer."""

from __future__ import annotations

import dataclasses
import sys

from pipeline_kit import kernel, line_of

from hoaregpu import core
from hoaregpu.driver import fresh_env, prepare_kernel
from hoaregpu.prepared import PreparedKernel
from hoaregpu.smt.script import KernelScript
from hoaregpu.solvers import Outcome, SolverOptions, SolveTask, solve_many
from hoaregpu.terms import Binary, BinOp, IntLit, Var
from hoaregpu.vc.generate import generate
from hoaregpu.vc.goals import Hyp
from hoaregpu.vc.kinds import VcKind

MIXED = """
/*@ requires n >= 0;
    ensures a[threadIdx.x] >= 0;
*/
__global__ void k(int *a, int n) {
    int x = 0;
    //@ assert x == 0;
    if (threadIdx.x < 2) { x = 1; } else { x = 2; }
    /*@ loop invariant 0 <= i && i <= n;
        loop invariant x >= 1;
    */
    for (int i = 0; i < n; i++) {
        //@ assert x >= 1;
        x = x + 1;
    }
    __syncthreads();
    a[threadIdx.x] = x;
}
"""


def test_vcs_come_in_program_order_with_their_origins() -> None:
    with fresh_env() as env:
        vcs = generate(kernel(MIXED), env)
    got = [(vc.kind, vc.origin.span.line) for vc in vcs]
    inv0, inv1 = line_of(MIXED, "0 <= i"), line_of(MIXED, "invariant x >= 1")
    assert got == [
        (VcKind.ASSERTION, line_of(MIXED, "assert x == 0")),
        (VcKind.LOOP_INVARIANT_ENTRY, inv0),
        (VcKind.LOOP_INVARIANT_ENTRY, inv1),
        (VcKind.ASSERTION, line_of(MIXED, "assert x >= 1")),
        (VcKind.LOOP_INVARIANT_PRESERVED, inv0),
        (VcKind.LOOP_INVARIANT_PRESERVED, inv1),
        (VcKind.POSTCONDITION, line_of(MIXED, "ensures")),
    ]
    assert [vc.origin.rule for vc in vcs][1] == "H-WHILE"


def test_the_loop_continuation_does_not_see_the_body() -> None:
    """The postcondition's path leaves the loop head for the exit, not through the body:
    the body's last hypotheses are not on it, the head's are (shared, the same objects)."""
    with fresh_env() as env:
        vcs = generate(kernel(MIXED), env)
        preserved, post = vcs[4], vcs[-1]
        assert preserved.hyps is not None and post.hyps is not None
        body_path = {id(f) for f in _nodes(preserved.hyps)}
        post_path = {id(f) for f in _nodes(post.hyps)}
        assert not {id(preserved.hyps)} <= post_path
        shared = body_path & post_path
        assert shared and len(shared) < len(body_path)


def _nodes(h: Hyp | None) -> list[Hyp]:
    out = []
    while h is not None:
        out.append(h)
        h = h.parent
    return out


def test_wrong_kernels_are_still_refuted_and_right_ones_proved() -> None:
    src = MIXED.replace("loop invariant x >= 1;", "loop invariant x >= 2;")
    with fresh_env():
        path = "/tmp/hoaregpu_forward_test.cu"
        with open(path, "w", encoding="utf-8") as f:
            f.write(src)
        prepared = prepare_kernel(path, kernel(src), None)
    tasks = [SolveTask(vc.script, "z3") for vc in prepared.vcs]
    results = solve_many(tasks, SolverOptions(timeout=10))
    verdicts = {
        (vc.origin.kind, vc.origin.span.line): r.outcome for vc, r in zip(prepared.vcs, results, strict=True)
    }
    line = line_of(src, "invariant x >= 2")
    assert verdicts[(VcKind.LOOP_INVARIANT_ENTRY, line)] is Outcome.REFUTED
    assert verdicts[(VcKind.LOOP_INVARIANT_PRESERVED, line)] is Outcome.PROVED  # x only grows
    assert verdicts[(VcKind.ASSERTION, line_of(src, "assert x == 0"))] is Outcome.PROVED


def sequential(n: int) -> str:
    loops = "".join(
        f"    /*@ loop invariant a[threadIdx.x] >= \\old(a[threadIdx.x]); */\n"
        f"    for (int i{k} = 0; i{k} < n; i{k}++) {{ a[threadIdx.x] = a[threadIdx.x] + 1; }}\n"
        for k in range(n)
    )
    head = "/*@ ensures a[threadIdx.x] >= \\old(a[threadIdx.x]); */\n"
    return f"{head}__global__ void k(int *a, int n) {{\n{loops}}}\n"


def _prepared(src: str, tmp_path: object, name: str) -> PreparedKernel:
    path = f"{tmp_path}/{name}.cu"
    with open(path, "w", encoding="utf-8") as f:
        f.write(src)
    # The forward VC generator's own VCs: race checks come with a prefix of their own.
    return prepare_kernel(path, kernel(src), None, check_races=False)


def test_smt_text_grows_linearly_with_sequential_loops(tmp_path: object) -> None:
    """Each VC used to re-print its whole path (quadratic); now each hypothesis is printed
    once in the kernel's prefix and a VC is a short body."""
    sizes = {}
    for n in (10, 20, 40):
        p = _prepared(sequential(n), tmp_path, f"seq{n}")
        sizes[n] = len(p.smt_prefix) + sum(len(vc.body) for vc in p.vcs)
        bodies = [len(vc.body) for vc in p.vcs]
        assert max(bodies) < 3 * min(bodies) + 2000  # a body does not grow with its path
    assert sizes[20] / sizes[10] < 2.3 and sizes[40] / sizes[20] < 2.3, sizes


def summed(n: int, wrong: int = -1) -> str:
    """n steps, each followed by an assertion holding an aggregate (a closed VC)."""
    steps = "".join(
        f"    x = x + 1;\n"
        f"    //@ assert x == {k + 1 + (k == wrong)} || \\sum(0, n - 1, \\lambda int j; a[j]) > {k};\n"
        for k in range(n)
    )
    return f"__global__ void k(int *a, int n) {{\n    int x = 0;\n{steps}}}\n"


def test_closed_vcs_share_their_paths_too(tmp_path: object) -> None:
    """A VC holding an aggregate is closed (`smt.sums`). It used to get its whole path as one
    hypothesis of its own, re-printed per VC (22 MB of text for the Blelloch scan at 1,024
    threads); now each hypothesis is closed once and closed VCs share their paths."""
    sizes = {}
    for n in (10, 20, 40):
        p = _prepared(summed(n), tmp_path, f"summed{n}")
        assert len(p.vcs) == n
        sizes[n] = len(p.smt_prefix) + sum(len(vc.body) for vc in p.vcs)
    assert sizes[20] / sizes[10] < 2.3 and sizes[40] / sizes[20] < 2.3, sizes
    for vc in p.vcs:  # the VC's own hypothesis, its aggregates' axioms, is printed before its path
        name = vc.body.split()[1].rstrip(")")
        definition = vc.script.split(f"(define-fun {name} () Bool ", 1)[1]
        assert definition.startswith("(and (") and "agg!" in definition.split("\n", 1)[0]
    src = summed(6, wrong=3)
    p = _prepared(src, tmp_path, "summed_wrong")
    results = solve_many([SolveTask(vc.script, "z3") for vc in p.vcs], SolverOptions(timeout=10))
    refuted = [
        vc.origin.span.line for vc, r in zip(p.vcs, results, strict=True) if r.outcome is Outcome.REFUTED
    ]
    assert refuted == [line_of(src, "x == 5 ||")]
    assert all(r.outcome in (Outcome.PROVED, Outcome.REFUTED) for r in results)


def test_each_vc_script_is_standalone_and_ends_with_its_body(tmp_path: object) -> None:
    p = _prepared(sequential(3), tmp_path, "seq3")
    for vc in p.vcs:
        assert vc.script == p.smt_prefix[: vc.prefix_end] + vc.body
        assert vc.script.startswith("(set-option :produce-models true)")
        assert vc.body.startswith("(assert ") and "(check-sat)" in vc.body
    results = solve_many(
        [SolveTask(vc.script, s) for vc in p.vcs for s in ("z3", "cvc5")], SolverOptions(timeout=10)
    )
    assert {r.outcome for r in results} == {Outcome.PROVED}


def test_a_refuted_vc_model_is_checked_against_the_shared_script(tmp_path: object) -> None:
    src = sequential(2).replace(
        ">= \\old(a[threadIdx.x]); */\n    for (int i1", "> \\old(a[threadIdx.x]); */\n    for (int i1"
    )
    p = _prepared(src, tmp_path, "bad")
    results = solve_many([SolveTask(vc.script, "z3") for vc in p.vcs], SolverOptions(timeout=10))
    refuted = [r for r in results if r.outcome is Outcome.REFUTED]
    assert refuted
    assert all("confirmed" in (r.model_check or "") for r in refuted), [r.model_check for r in refuted]


def _deep(depth: int) -> core.Kernel:
    """`x := x + 1` under `depth` nested ifs and loops, built directly (Clang refuses brackets
    nested deeper than 256)."""
    x = Var("x", ())
    inc = core.Assign("x", (), Binary(BinOp.ADD, x, IntLit(1)))
    body: core.Stmt = inc
    for level in range(depth):
        cond = Binary(BinOp.LT, x, IntLit(level))
        body = core.If(cond, body, core.Skip()) if level % 2 else core.While(cond, core.Seq((body, inc)))
    decl = core.VarDecl("x", core.VarKind.LOCAL, 0, core.VarRole.LOCAL)
    return core.Kernel("deep", (), (decl,), (), (), core.Seq((inc, body)))


def test_no_recursion_limit_on_nesting() -> None:
    # nesting 3 times the recursion limit deep, under a lowered limit: a mask at depth d is
    # d literals (Kojima & Igarashi's m ∧ z ∧ ...), so generation is quadratic in the depth,
    # and 3,000 levels under the default limit took two minutes of the suite
    limit = sys.getrecursionlimit()
    k = _deep(3 * 250)
    sys.setrecursionlimit(250)
    try:
        with fresh_env() as env:
            vcs = generate(k, env)
    finally:
        sys.setrecursionlimit(limit)
    assert vcs == []  # no clause, no barrier: nothing to prove, and no RecursionError


def test_kernel_script_defines_each_hypothesis_once() -> None:
    with fresh_env() as env:
        vcs = generate(kernel(MIXED), env)
        script = KernelScript()
        for vc in vcs:
            script.vc(vc.hyps, vc.obligation, [q.term for q in vc.queries])
        text = script.text()
    defined = [line.split()[1] for line in text.splitlines() if line.startswith("(define-fun")]
    assert len(defined) == len(set(defined))
    deepest = max((vc.hyps for vc in vcs if vc.hyps is not None), key=lambda h: h.index)
    assert len(defined) >= len(deepest.path())


def test_vc_formula_is_the_implication_of_its_path() -> None:
    with fresh_env() as env:
        (vc, *_) = generate(kernel(MIXED), env)
        f = vc.formula
        assert f.is_implies() and f.arg(1) == vc.obligation
        assert vc.hyps is not None and list(f.arg(0).args()) == vc.hyps.path()
        del env
    assert dataclasses.is_dataclass(vc)
