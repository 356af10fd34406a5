"""Loops without invariants (`hoaregpu/unroll.py`): trip counts of each loop shape, the loops
that must not be unrolled (and are reported as taken with `true`), verdicts that depend on
unrolling, planted bugs refuted at their source line, and the report of both."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pipeline_kit import line_of, lower, source

from hoaregpu import core
from hoaregpu.cli import main
from hoaregpu.consteval import evaluate
from hoaregpu.driver import KernelResult, VerifyOptions, verify
from hoaregpu.expectations import mismatches, parse_expectation
from hoaregpu.frontend import parse_text
from hoaregpu.interp.evaluate import c_div, c_mod, c_shl, c_shr
from hoaregpu.launch import Launch
from hoaregpu.limits import DEFAULT_UNROLL
from hoaregpu.lower import lower_file
from hoaregpu.report import render_json, render_text
from hoaregpu.solvers import Outcome
from hoaregpu.term_walk import subterms
from hoaregpu.terms import Binary, BinOp, IntLit, Term, Var
from hoaregpu.unroll import BUDGET_FACTOR, Unrolled, unroll


def assigns(s: core.Stmt, target: str) -> list[core.Assign]:
    return [x for x in core.statements(s) if isinstance(x, core.Assign) and x.target == target]


def loops(s: core.Stmt) -> list[core.While]:
    return [x for x in core.statements(s) if isinstance(x, core.While)]


def unrolled(src: str, threads: int | None = None, limit: int = DEFAULT_UNROLL) -> Unrolled:
    k = lower(src)
    return unroll(k, Launch.of_threads(threads) if threads is not None else k.launch, limit)


def iterations(src: str, threads: int | None = None, limit: int = DEFAULT_UNROLL) -> list[str]:
    """The counter value of each unrolled copy of the writes to the marker array `m`."""
    u = unrolled(src, threads, limit)
    out = []
    for a in assigns(u.kernel.body, "m"):
        assert a.span is not None
        out.append(" / ".join(c.rsplit("(", 1)[1].rstrip(")") for c in a.span.context))
    return out


def refusal(src: str, threads: int | None = None, limit: int = DEFAULT_UNROLL) -> str:
    u = unrolled(src, threads, limit)
    assert u.unrolled == 0 and len(loops(u.kernel.body)) == 1
    (missing,) = u.missing
    loop = "for (" if "for (" in src else "while ("
    assert missing.span.line == line_of(src, loop)
    return missing.reason


# -- trip counts ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("loop", "values"),
    [
        ("for (int k = 0; k < 4; k++)", ["k = 0", "k = 1", "k = 2", "k = 3"]),
        ("for (int k = 8; k > 0; k /= 2)", ["k = 8", "k = 4", "k = 2", "k = 1"]),
        ("for (int k = 1; k < 256; k *= 2)", [f"k = {2**i}" for i in range(8)]),
        ("for (int k = 3; k >= 0; --k)", ["k = 3", "k = 2", "k = 1", "k = 0"]),
        ("for (int k = 0; k < N; k += 2)", ["k = 0", "k = 2", "k = 4"]),
        ("for (int k = top; k > 0; k--)", ["k = 5", "k = 4", "k = 3", "k = 2", "k = 1"]),
        ("for (unsigned k = 16; k > 1; k >>= 1)", ["k = 16", "k = 8", "k = 4", "k = 2"]),
        ("for (int k = -7; k != 0; k = k / 2)", ["k = -7", "k = -3", "k = -1"]),
        ("for (int k = 5; k < 3; k++)", []),
    ],
)
def test_trip_count_of_each_loop_shape(loop: str, values: list[str]) -> None:
    src = f"""
        #define N 5
        __global__ void k(int *m) {{
            const int top = 5;
            {loop} {{
                m[threadIdx.x] = k;
            }}
        }}
        """
    assert iterations(src) == values
    u = unrolled(src)
    assert u.unrolled == 1 and not u.missing and not loops(u.kernel.body)


def test_blockdim_bound_from_requires_and_from_threads() -> None:
    src = """
        /*@ requires blockDim.x == 8; */
        __global__ void k(int *m) {
            for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
                m[threadIdx.x] = s;
            }
        }
        """
    assert iterations(src) == ["s = 4", "s = 2", "s = 1"]
    free = src.replace("/*@ requires blockDim.x == 8; */", "")
    assert "value of its counter 's' on entry is not a known constant" in refusal(free)
    assert iterations(free, threads=4) == ["s = 2", "s = 1"]  # --threads 4
    up = free.replace("unsigned s = blockDim.x / 2; s > 0; s >>= 1", "int s = 1; s < blockDim.x; s *= 2")
    assert "condition reads blockDim.x, which is not fixed" in refusal(up)
    assert iterations(up, threads=5) == ["s = 1", "s = 2", "s = 4"]


def test_while_loop_with_the_counter_stepped_inside() -> None:
    assert iterations("""
        __global__ void k(int *m) {
            int i = 0;
            while (i < 3) {
                m[i] = 1;
                i = i + 1;
                m[i] = 2;
            }
        }
        """) == ["i = 0", "i = 0", "i = 1", "i = 1", "i = 2", "i = 2"]


def test_nested_loops_see_the_outer_counter_in_each_copy() -> None:
    src = """
        __global__ void k(int *m) {
            for (int i = 0; i < 3; i++) {
                for (int j = 0; j < i; j++) {
                    m[threadIdx.x] = j;
                }
            }
        }
        """
    assert iterations(src) == ["i = 1 / j = 0", "i = 2 / j = 0", "i = 2 / j = 1"]
    assert unrolled(src).unrolled == 1 + 3  # the outer loop and one inner loop per copy


def test_a_constant_agreed_on_by_both_branches_counts_one_set_in_one_branch_does_not() -> None:
    agreed = """
        __global__ void k(int *m) {
            int k;
            if (threadIdx.x == 0) { k = 1; } else { k = 1; }
            for (; k < 3; k++) { m[k] = 0; }
        }
        """
    assert iterations(agreed) == ["k = 1", "k = 2"]
    one_branch = agreed.replace("else { k = 1; }", "")
    assert "on entry is not a known constant" in refusal(one_branch)


def test_continue_keeps_the_step() -> None:
    assert iterations("""
        __global__ void k(int *m) {
            for (int k = 0; k < 3; k++) {
                if (k == threadIdx.x) continue;
                m[threadIdx.x] = k;
            }
        }
        """) == ["k = 0", "k = 1", "k = 2"]


def test_break_and_return_guard_each_copy_by_their_flags() -> None:
    u = unrolled("""
        __global__ void k(int *m, int *a) {
            for (int k = 0; k < 3; k++) {
                if (a[threadIdx.x] == k) return;
                if (k == threadIdx.x) break;
                m[threadIdx.x] = k;
            }
        }
        """)
    assert u.unrolled == 1 and not loops(u.kernel.body)
    copies = [g for g in ifs(u.kernel.body) if names(g.cond) == {"break.1", "return.1"}]
    assert len(copies) == 3


def ifs(s: core.Stmt) -> list[core.If]:
    if isinstance(s, core.If):
        return [s, *ifs(s.then), *ifs(s.orelse)]
    if isinstance(s, core.Seq):
        return [i for x in s.stmts for i in ifs(x)]
    return []


def names(t: Term) -> set[str]:
    return {x.name for x in subterms(t) if isinstance(x, Var)}


def test_evaluate_agrees_with_the_interpreters_c_operators() -> None:
    ops = {BinOp.DIV: c_div, BinOp.MOD: c_mod, BinOp.SHL: c_shl, BinOp.SHR: c_shr}
    for op, f in ops.items():
        for a in range(-9, 10):
            for b in range(-4, 5):
                got = evaluate(Binary(op, IntLit(a), IntLit(b)), {}, Launch())
                try:
                    want: int | None = f(a, b)
                except Exception:
                    want = None
                assert got == want, (op, a, b)


# -- loops that are not unrolled -----------------------------------------------------------


@pytest.mark.parametrize(
    ("loop", "reason"),
    [
        ("for (int k = 0; k < threadIdx.x; k++)", "reads threadIdx.x"),
        ("for (int k = threadIdx.x; k < 4; k++)", "on entry is not a known constant"),
        ("for (int k = 0; k < n; k++)", "reads 'n', which is not a constant"),
        ("for (int k = 0; k < a[0]; k++)", "reads the array 'a'"),
        ("for (int k = 0; k < 4; )", "no loop counter"),
        ("for (int k = 0; k < 4; k = k)", "more than 64 iterations"),
        ("for (int k = 0; k < 100; k++)", "more than 64 iterations"),
        ("for (int k = 0; k < 4; k += threadIdx.x)", "reads threadIdx.x"),
    ],
)
def test_refused_loops_are_listed_with_the_reason(loop: str, reason: str) -> None:
    src = f"""
        __global__ void k(int *m, int *a, int n) {{
            {loop} {{
                m[threadIdx.x] = 1;
            }}
        }}
        """
    assert reason in refusal(src)


def test_counter_assigned_in_the_body_is_refused() -> None:
    for extra in ("if (a[0] > 0) k++;", "k = k + 1;", "for (int j = 0; j < 2; j++) k = k;"):
        src = f"""
            __global__ void k(int *a) {{
                for (int k = 0; k < 4; k++) {{
                    {extra}
                }}
            }}
            """
        u = unrolled(src)
        reasons = [m.reason for m in u.missing]
        assert any("not assigned exactly once" in r for r in reasons), (extra, reasons)


def test_break_before_the_step_of_a_while_loop_is_refused() -> None:
    # the counter moves only for threads that did not break: a `while` whose step stands in a
    # branch is a per-thread trip count
    src = """
        __global__ void k(int *a) {
            int k = 0;
            while (k < 4) {
                if (a[threadIdx.x] > 0) { k = k + 2; } else { k = k + 1; }
            }
        }
        """
    assert "not assigned exactly once" in refusal(src)


def test_a_step_skipped_by_continue_is_refused(tmp_path: Path) -> None:
    # thread 0 continues once without stepping k: it runs 4 iterations, the others 3. The
    # step stands under the `continue` flag's guard, which (unlike a break's) does not make
    # the thread inactive for the rest of the loop.
    src = """
        /*@ ensures c == 3; */
        __global__ void k(int *m) {
            int c = 0;
            int skipped = 0;
            int k = 0;
            while (k < 3) {
                c++;
                if (threadIdx.x == 0 && skipped == 0) { skipped = 1; continue; }
                k = k + 1;
            }
        }
        """
    assert "not assigned exactly once" in refusal(src)
    assert run(tmp_path, src).verdict == "failed"


def test_a_bound_changed_in_the_body_is_refused() -> None:
    src = """
        __global__ void k(int *a) {
            int lim = 4;
            for (int k = 0; k < lim; k++) {
                lim = 2;
            }
        }
        """
    assert "several variables" in refusal(src)


def test_the_limit_and_the_budget() -> None:
    src = """
        __global__ void k(int *m) {
            for (int k = 0; k < 100; k++) { m[k] = 0; }
        }
        """
    assert len(iterations(src, limit=100)) == 100
    assert "raise it with --unroll N" in refusal(src, limit=99)
    assert "turned off" in refusal(src, limit=0)
    nest = """
        __global__ void k(int *m) {
            for (int a = 0; a < 3; a++)
              for (int b = 0; b < 3; b++)
                for (int c = 0; c < 3; c++)
                  for (int d = 0; d < 3; d++) { m[0] = 0; }
        }
        """
    u = unrolled(nest, limit=3)  # 3 + 9 + 27 + 81 iterations > 3 * BUDGET_FACTOR
    assert 3 + 9 + 27 <= 3 * BUDGET_FACTOR < 3 + 9 + 27 + 81
    assert any("budget" in m.reason for m in u.missing)


def test_loops_with_invariants_are_left_alone() -> None:
    u = unrolled("""
        __global__ void k(int *m) {
            /*@ loop invariant 0 <= k && k <= 4; */
            for (int k = 0; k < 4; k++) { m[k] = 0; }
        }
        """)
    assert u.unrolled == 0 and not u.missing and len(loops(u.kernel.body)) == 1


# -- verdicts ------------------------------------------------------------------------------

ACC = """
    /*@ ensures out[threadIdx.x] == 4 * \\old(in[threadIdx.x]); */
    __global__ void acc4(int *in, int *out) {
        int acc = 0;
        for (int k = 0; k < 4; k++) {
            acc += in[threadIdx.x];
            /*@ assert acc == (k + 1) * in[threadIdx.x]; */
        }
        out[threadIdx.x] = acc;
    }
    """


def run(tmp_path: Path, src: str, name: str = "k.cu", **options: int) -> KernelResult:
    path = tmp_path / name
    path.write_text(source(src))
    result = verify([str(path)], VerifyOptions(jobs=2, **options))  # type: ignore[arg-type]
    assert not result.errors, [e.render() for e in result.errors]
    (kernel,) = result.kernels
    return kernel


def refuted(k: KernelResult) -> set[tuple[str, int]]:
    return {
        (r.vc.origin.kind.value, r.vc.origin.span.line)
        for r in k.results
        if r.result.outcome is Outcome.REFUTED
    }


def test_a_kernel_verified_only_thanks_to_unrolling(tmp_path: Path) -> None:
    k = run(tmp_path, ACC)
    own = [r for r in k.results if r.vc.origin.kind.value != "data-race"]
    assert k.verdict == "verified" and len(own) == 5  # 4 copies of the assert + ensures
    off = run(tmp_path, ACC, unroll=0)
    assert off.verdict == "failed"
    assert ("postcondition", 1) in refuted(off)
    assert [m.span.line for m in off.prepared.missing_invariants] == [line_of(ACC, "for (")]


def test_a_planted_bug_in_an_unrolled_loop_is_refuted_at_its_line(tmp_path: Path) -> None:
    bug = ACC.replace("(k + 1) * in[threadIdx.x];", "(k + 1) * in[threadIdx.x] && k != 2;")
    k = run(tmp_path, bug)
    assert refuted(k) == {("assertion", line_of(bug, "assert"))}
    (r,) = [r for r in k.results if r.result.outcome is Outcome.REFUTED]
    assert r.vc.origin.span.context == (
        f"iteration 3 of 4 of the unrolled loop at line {line_of(bug, 'for (')} (k = 2)",
    )
    text = render_text_of(k)
    assert f"k.cu:{line_of(bug, 'assert')}:" in text and "note: in iteration 3 of 4" in text


def render_text_of(k: KernelResult) -> str:
    from hoaregpu.driver import RunResult

    return render_text(RunResult((k,), ()))


BREAK = """
    /*@ requires blockDim.x == 4;
        ensures \\forall int j; 0 <= j < 4 ==> out[j] == (j < 2 ? j : 2);
    */
    __global__ void first(int *out) {
        int found = 0;
        for (int k = 0; k < 4; k++) {
            if (k == threadIdx.x || k == 2) break;
            found++;
        }
        out[threadIdx.x] = found;
    }
    """


def test_break_in_an_unrolled_loop(tmp_path: Path) -> None:
    assert run(tmp_path, BREAK).verdict == "verified"
    bug = BREAK.replace("(j < 2 ? j : 2)", "(j < 2 ? j : 3)")
    assert refuted(run(tmp_path, bug)) == {("postcondition", line_of(bug, "ensures"))}


def test_continue_and_return_in_an_unrolled_loop(tmp_path: Path) -> None:
    src = """
        /*@ requires gridDim.x == 1; requires blockDim.x == 4;
            ensures \\forall int j; 0 <= j < 4 ==> out[j] == (j == 3 ? 3 : 9);
        */
        __global__ void k(int *out) {
            out[threadIdx.x] = 9;
            int acc = 0;
            for (int k = 0; k < 4; k++) {
                if (k == threadIdx.x) continue;
                if (k == 3) return;
                acc++;
            }
            out[threadIdx.x] = acc;
        }
        """
    assert run(tmp_path, src).verdict == "verified"
    bug = src.replace("(j == 3 ? 3 : 9)", "9")
    assert refuted(run(tmp_path, bug)) == {("postcondition", line_of(bug, "ensures"))}


def test_unsigned_countdown_past_zero_is_caught_by_its_wrap_check(tmp_path: Path) -> None:
    # in C `k >= 0` is always true for an unsigned k: the loop never ends. Unrolling follows the
    # mathematical values (k = -1 ends it), but the store of k - 1 into k is checked in each copy.
    src = """
        /*@ requires gridDim.x == 1; */ __global__ void k(int *out) {
            for (unsigned k = 2; k >= 0; k--) {
                out[threadIdx.x] = k;
            }
        }
        """
    k = run(tmp_path, src)
    assert k.verdict == "failed" and {kind for kind, _ in refuted(k)} == {"unsigned-wrap"}


def test_unrolled_barriers_keep_their_divergence_vcs(tmp_path: Path) -> None:
    src = """
        /*@ requires gridDim.x == 1; requires blockDim.x == 8; */
        __global__ void k(int *a) {
            for (int s = 4; s > 0; s /= 2) {
                if (threadIdx.x < s) {
                    a[threadIdx.x] += a[threadIdx.x + s];
                    __syncthreads();
                }
            }
        }
        """
    k = run(tmp_path, src)
    sync = line_of(src, "__syncthreads")
    bars = [r for r in k.results if r.vc.origin.kind.value == "barrier-divergence"]
    assert len(bars) == 3 and all(r.vc.origin.span.line == sync for r in bars)
    assert all(r.result.outcome is Outcome.REFUTED for r in bars)
    text = render_text_of(k)
    # one error line for the barrier, the other iterations in a note
    assert text.count("[barrier-divergence]") == 1
    assert "likewise refuted in iteration 2 of 3" in text and "iteration 3 of 3" in text
    exp = parse_expectation(f"// expect: failed barrier-divergence:{sync}\n")
    assert exp is not None
    assert (
        mismatches(
            exp, [(r.vc.origin.kind.value, r.vc.origin.span.line, r.result.outcome) for r in k.results], "z3"
        )
        == []
    )


def test_report_of_a_loop_taken_as_true(tmp_path: Path) -> None:
    src = """
        /*@ ensures out[threadIdx.x] == 4 * \\old(in[threadIdx.x]); */
        __global__ void k(int *in, int *out, int n) {
            int acc = 0;
            for (int i = 0; i < n; i++) {
                acc += in[threadIdx.x];
            }
            out[threadIdx.x] = acc;
        }
        """
    k = run(tmp_path, src)
    assert k.verdict == "failed"
    text = render_text_of(k)
    loop = line_of(src, "for (")
    # the counter's invariants are inferred (hoaregpu.loop_inference), the accumulator's are not
    taken = "so it was taken with the invariants inferred for it"
    assert f"k.cu:{loop}:5: warning: this loop has no 'loop invariant', {taken}" in text
    assert "note: inferred and proved: i == i @ 0, i >= 0\n" in text
    assert "not unrolled because its condition reads 'n'" in text
    doc = json.loads(render_json(_run_result(k)))
    assert doc["kernels"][0]["loops_without_invariant"][0]["line"] == loop
    # a kernel verified with `true` is verified, without a warning
    fine = src.replace("== 4 * \\old(in[threadIdx.x])", "== out[threadIdx.x]").replace(
        "out[threadIdx.x] = acc;", ""
    )
    ok = run(tmp_path, fine)
    assert ok.verdict == "verified" and "missing-invariant" not in render_text_of(ok)


def _run_result(k: KernelResult):  # type: ignore[no-untyped-def]
    from hoaregpu.driver import RunResult

    return RunResult((k,), ())


def test_json_names_the_iteration(tmp_path: Path) -> None:
    bug = ACC.replace("(k + 1) * in", "k * in")
    doc = json.loads(render_json(_run_result(run(tmp_path, bug))))
    failed = [v for v in doc["kernels"][0]["vcs"] if v["outcome"] == "refuted"]
    assert failed and all(
        v["unrolled"][0].startswith("iteration ") for v in failed if v["kind"] == "assertion"
    )


def test_cli_unroll_option(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "acc.cu"
    path.write_text(source(ACC))
    assert main(["verify", str(path), "--no-cache", "--jobs", "1", "--no-replay"]) == 0
    assert main(["verify", str(path), "--no-cache", "--jobs", "1", "--no-replay", "--unroll", "0"]) == 1
    assert "missing-invariant" in capsys.readouterr().out
    assert main(["verify", str(path), "--unroll", "-1"]) == 3
    assert main(["verify", str(path), "--no-cache", "--jobs", "1", "--no-replay", "--unroll", "3"]) == 1


def test_prove_uses_the_unrolled_program(tmp_path: Path) -> None:
    from hoaregpu.proof.kernel import load_kernels
    from hoaregpu.proof.syntax import show_prog

    path = tmp_path / "acc.cu"
    path.write_text(source(ACC))
    (info,) = load_kernels(str(path))
    assert "while" not in show_prog(info.program) and not info.missing_invariants
    path.write_text(source(ACC).replace("k < 4", "k < in[0]"))
    (info,) = load_kernels(str(path))
    assert "while" in show_prog(info.program)
    assert "reads the array 'in'" in info.missing_invariants[0].reason


# -- grids and device functions with contracts ------------------------------------------------


def test_grid_sizes_and_block_ids() -> None:
    src = """
        /*@ requires gridDim.x == 3; */
        __global__ void k(int *m) {
            for (int b = 0; b < gridDim.x; b++) {
                m[b] = 0;
            }
        }
        """
    assert iterations(src) == ["b = 0", "b = 1", "b = 2"]
    assert "reads gridDim.x, which is not fixed" in refusal(
        src.replace("/*@ requires gridDim.x == 3; */", "")
    )
    by_block = src.replace("b < gridDim.x", "b < blockIdx.x")
    assert "reads blockIdx.x (the trip count depends on the thread)" in refusal(by_block)
    rows = src.replace("b < gridDim.x", "b < blockDim.y").replace("gridDim.x == 3", "blockDim.y == 2")
    assert iterations(rows) == ["b = 0", "b = 1"]
    assert "reads blockDim.y, which is not fixed" in refusal(rows, threads=2)  # fixes only .x


def test_a_grid_kernel_verified_by_unrolling(tmp_path: Path) -> None:
    src = """
        /*@ requires blockDim.x == 2;
            requires gridDim.x == 2;
            ensures \\forall int b; 0 <= b < 2 ==> out[b] == 4 * b + 1;
        */
        __global__ void k(int *out) {
            __shared__ int s[2];
            for (int i = 0; i < 2; i++) {
                s[threadIdx.x] = 2 * blockIdx.x + threadIdx.x;
                __syncthreads();
            }
            if (threadIdx.x == 0) out[blockIdx.x] = s[0] + s[1];
        }
        """
    assert run(tmp_path, src).verdict == "verified"
    bug = src.replace("4 * b + 1", "4 * b")
    assert refuted(run(tmp_path, bug)) == {("postcondition", line_of(bug, "ensures"))}


def test_a_contract_call_in_an_unrolled_loop(tmp_path: Path) -> None:
    src = """
        /*@ ensures \\result == x + 2; */
        __device__ int add2(int x) { return x + 2; }
        /*@ ensures out[threadIdx.x] == 8; */
        __global__ void k(int *out) {
            int acc = 0;
            for (int i = 0; i < 4; i++) {
                acc = add2(acc);
            }
            out[threadIdx.x] = acc;
        }
        """
    path = tmp_path / "c.cu"
    path.write_text(source(src))
    result = verify([str(path)], VerifyOptions(jobs=2))
    assert not result.errors
    kernel = next(k for k in result.kernels if k.prepared.kernel.name == "k")
    assert kernel.verdict == "verified" and not kernel.prepared.missing_invariants
    path.write_text(source(src).replace("== 8;", "== 6;"))
    result = verify([str(path)], VerifyOptions(jobs=2))
    kernel = next(k for k in result.kernels if k.prepared.kernel.name == "k")
    assert refuted(kernel) == {("postcondition", line_of(src, "== 8;"))}


def test_a_counter_changed_through_a_contract_call_is_not_constant() -> None:
    src = """
        /*@ ensures \\result >= x; */
        __device__ int grow(int x) { return x + 1; }
        __global__ void k(int *m) {
            int n = 2;
            n = grow(n);
            for (int i = 0; i < n; i++) { m[i] = 0; }
        }
        """
    (k,) = [k for k in lower_file(parse_text(source(src), "k.cu")) if k.name == "k"]
    u = unroll(k, None)
    assert u.unrolled == 0 and "'n', which is not a constant" in u.missing[0].reason


def test_the_counter_s_value_is_propagated_into_each_copy() -> None:
    """In each copy the counter (and any other known constant) is a literal in the program's
    expressions, operators over literals computed as C does: `a[tid + s]` is `a[tid + 4]`, ...,
    and `(tid + 1) % (2 * d)` a modulus by a constant; the counter's assignments stay."""
    u = unrolled(
        """
        __global__ void k(int *a) {
            for (int s = 4; s > 0; s /= 2) {
                if ((threadIdx.x + 1) % (2 * s) == 0) a[threadIdx.x] += a[threadIdx.x + s];
            }
        }
        """
    )
    writes = assigns(u.kernel.body, "a")
    offsets = [
        [t.right.value for t in subterms(w.value) if isinstance(t, Binary) and isinstance(t.right, IntLit)]
        for w in writes
    ]
    assert offsets == [[4], [2], [1]]
    conds = [g.cond for g in core.statements(u.kernel.body) if isinstance(g, core.If)]
    moduli = [
        t.right.value
        for c in conds
        for t in subterms(c)
        if isinstance(t, Binary) and t.op is BinOp.MOD and isinstance(t.right, IntLit)
    ]
    assert moduli == [8, 4, 2]
    assert len(assigns(u.kernel.body, "s")) == 1 + 3  # the initialisation and each step


def test_a_value_known_in_one_branch_only_is_not_propagated() -> None:
    u = unrolled(
        """
        __global__ void k(int *a, int *m) {
            int c = 1;
            if (threadIdx.x == 0) c = 2;
            for (int s = 0; s < 2; s++) { m[threadIdx.x] = c + s; }
        }
        """
    )
    values = [w.value for w in assigns(u.kernel.body, "m")]
    assert all(any(isinstance(t, Var) and t.name.startswith("c") for t in subterms(v)) for v in values)
    assert [[t.value for t in subterms(v) if isinstance(t, IntLit)] for v in values] == [[0], [1]]


# -- scalar parameters fixed by the contract -------------------------------------------------

FIXED_N = """
    /*@ requires n == 8; requires blockDim.x == 4; requires gridDim.x == 1; */
    __global__ void up(int *m, int n) {
        int offset = 1;
        for (int d = n >> 1; d > 0; d >>= 1) {
            __syncthreads();
            offset *= 2;
            if (threadIdx.x < d) {
                int ai = offset / 2 * (2 * threadIdx.x + 1) - 1;
                int bi = offset / 2 * (2 * threadIdx.x + 2) - 1;
                m[bi] += m[ai];
            }
        }
    }
    """


def test_a_parameter_fixed_by_requires_is_a_known_constant() -> None:
    # d = n >> 1 = 4, 2, 1 under `requires n == 8` (GPUVerify's test_relational_inference)
    src = FIXED_N.replace("m[bi] += m[ai];", "m[threadIdx.x] = d;")
    assert iterations(src) == ["d = 4", "d = 2", "d = 1"]
    flipped = src.replace("requires n == 8;", "requires 8 == n && n > 0;")
    assert iterations(flipped) == ["d = 4", "d = 2", "d = 1"]
    free = src.replace("requires n == 8;", "requires n > 0;")
    assert "value of its counter 'd' on entry is not a known constant" in refusal(free)
    # two different values make the precondition false: nothing is derived from it
    both = src.replace("requires n == 8;", "requires n == 8; requires n == 16;")
    assert "value of its counter 'd' on entry is not a known constant" in refusal(both)
    # a parameter the body assigns before the loop is no longer the contract's value
    changed = src.replace("int offset = 1;", "int offset = 1; n = n + m[0];")
    assert "value of its counter 'd' on entry is not a known constant" in refusal(changed)
    inside = src.replace("offset *= 2;", "offset *= 2; n = 3;")
    assert iterations(inside) == ["d = 4", "d = 2", "d = 1"]  # the counter is d, not n


def test_an_up_sweep_over_a_fixed_parameter_verifies_and_its_overlap_races(tmp_path: Path) -> None:
    assert run(tmp_path, FIXED_N).verdict == "verified"
    # bi one cell further: thread t's write meets thread t + 1's read of ai
    bug = FIXED_N.replace("(2 * threadIdx.x + 2) - 1;", "(2 * threadIdx.x + 2);")
    k = run(tmp_path, bug)
    assert k.verdict == "failed"
    assert ("data-race", line_of(bug, "m[bi] += m[ai];")) in refuted(k)


def test_the_counter_s_value_is_propagated_into_the_copies_clauses_but_not_below_at_or_a_binder() -> None:
    """An `assert` (a barrier invariant) in a copy reads the counter at the active threads,
    each holding the value: `(j + 1) % (2 * d)` becomes `(j + 1) % 4`. Not `d @ 0` (another
    thread's value), nor a bound variable of the same name."""
    u = unrolled(
        """
        __global__ void k(int *a) {
            for (int d = 1; d < 4; d *= 2) {
                //@ assert \\forall int j; 0 <= j < 4 && (j + 1) % (2 * d) == 0 ==> a[j] >= d @ 0;
                //@ assert \\forall int d; d == d;
                __syncthreads();
            }
        }
        """
    )
    asserts = [s.formula.term for s in core.statements(u.kernel.body) if isinstance(s, core.Assert)]
    moduli = [
        t.right.value
        for f in asserts
        for t in subterms(f)
        if isinstance(t, Binary) and t.op is BinOp.MOD and isinstance(t.right, IntLit)
    ]
    assert moduli == [2, 4]
    names = [{t.name for t in subterms(f) if isinstance(t, Var)} for f in asserts]
    assert names == [{"a", "d", "j"}, {"d"}] * 2  # `d @ 0`, and the bound `d`
