"""Early exit by masks (`hoaregpu/early_exit.py`): the lowered program, the automatic
`brk ==> B` invariant and where it must not be added, and the verdicts that follow."""

from __future__ import annotations

from pipeline_kit import PROVED, REFUTED, lower, outcomes

from hoaregpu import core
from hoaregpu.pretty import show_stmt as _show_lines
from hoaregpu.terms import Binary, BinOp, IntLit, Var


def show_stmt(s: core.Stmt) -> str:
    return "\n".join(_show_lines(s))


def loops(s: core.Stmt) -> list[core.While]:
    return [x for x in core.statements(s) if isinstance(x, core.While)]


def no_exits(s: core.Stmt) -> bool:
    if isinstance(s, core.Exit):
        return False
    if isinstance(s, core.Seq):
        return all(no_exits(x) for x in s.stmts)
    if isinstance(s, core.If):
        return no_exits(s.then) and no_exits(s.orelse)
    if isinstance(s, core.While):
        return no_exits(s.body)
    return True


def test_return_guards_the_rest_of_the_kernel() -> None:
    k = lower("""
        __global__ void k(int *out, int n) {
            if (threadIdx.x >= n) return;
            out[threadIdx.x] = 1;
        }
        """)
    assert no_exits(k.body)
    text = show_stmt(k.body)
    assert "return.1 := 0" in text and "return.1 := 1" in text
    assert "if !return.1 then" in text
    assert k.decl("return.1").role is core.VarRole.SYNTHETIC


def test_a_kernel_without_exits_is_unchanged() -> None:
    k = lower("__global__ void k(int *out) {\n  int i = 0;\n  while (i < 3) i++;\n  out[0] = i;\n}\n")
    assert not any(d.role is core.VarRole.SYNTHETIC for d in k.decls)
    (w,) = loops(k.body)
    assert w.cond == Binary(BinOp.LT, Var("i"), IntLit(3))


def test_return_in_a_loop_stops_the_loop_for_that_thread() -> None:
    k = lower("""
        __global__ void k(int *out) {
            int i = 0;
            while (i < 10) {
                if (i == threadIdx.x) return;
                i++;
            }
            out[threadIdx.x] = i;
        }
        """)
    (w,) = loops(k.body)
    assert "!return.1 && i < 10" in show_stmt(w)


def test_continue_keeps_the_for_step_and_break_skips_it() -> None:
    k = lower("""
        __global__ void k(int *out) {
            int c = 0;
            for (int i = 0; i < 8; i++) {
                if (i == 5) break;
                if (i % 2 == 0) continue;
                c++;
            }
            out[threadIdx.x] = c;
        }
        """)
    (w,) = loops(k.body)
    text = show_stmt(w)
    assert w.cond.op is BinOp.AND  # type: ignore[union-attr]
    assert "continue.1 := 0" in text
    # the step runs unless the thread broke out (a continued iteration still steps)
    assert "if !break.1 then\n" in text and "i := i + 1" in text
    steps = [line for line in text.splitlines() if "i := i + 1" in line]
    assert len(steps) == 1


def test_break_condition_over_locals_becomes_an_invariant() -> None:
    k = lower("""
        __global__ void k(int *out) {
            int k = 0;
            /*@ loop invariant k <= 2; */
            while (k < threadIdx.x) {
                if (k == 2) break;
                k++;
            }
            out[threadIdx.x] = k;
        }
        """)
    (w,) = loops(k.body)
    assert len(w.invariants) == 2
    assert w.invariants[1].term == Binary(
        BinOp.IMPLIES, Var("break.1"), Binary(BinOp.EQ, Var("k"), IntLit(2))
    )


def test_no_automatic_invariant_when_the_break_condition_may_change() -> None:
    shared_read = """
        __global__ void k(int *a, int *out) {
            int k = 0;
            while (k < 4) {
                if (a[0] == k) break;
                k++;
            }
            out[threadIdx.x] = k;
        }
        """
    assigned_before_break = """
        __global__ void k(int *out) {
            int k = 0;
            while (k < 4) {
                if (k == 2) { k = 7; break; }
                k++;
            }
            out[threadIdx.x] = k;
        }
        """
    for src in (shared_read, assigned_before_break):
        (w,) = loops(lower(src).body)
        assert w.invariants == (), src


def test_verdicts_with_exits() -> None:
    # kept knowledge at a break proves the postcondition; without the break it is wrong
    src = """
        /*@ requires blockDim.x == 4;
            ensures \\forall int j; 0 <= j < 4 ==> out[j] == (j < 2 ? j : 2);
        */
        __global__ void k(int *out) {
            int k = 0;
            /*@ loop invariant 0 <= k && k <= threadIdx.x && k <= 2; */
            while (k < threadIdx.x) {
                if (k == 2) break;
                k++;
            }
            out[threadIdx.x] = k;
        }
        """
    assert set(outcomes(src)) == {PROVED}
    assert REFUTED in outcomes(src.replace("(j < 2 ? j : 2)", "j"))
    # a barrier after a return some threads took diverges; after a uniform return it does not
    barrier = """
        /*@ requires n >= 1; */
        __global__ void k(int *out, int n) {
            if (COND) return;
            __syncthreads();
            out[threadIdx.x] = 1;
        }
        """
    assert REFUTED in outcomes(barrier.replace("COND", "threadIdx.x >= n"))
    assert set(outcomes(barrier.replace("COND", "n > 100"))) == {PROVED}


def test_return_as_the_last_statement_of_a_loop_body_is_eliminated() -> None:
    # regression: an exit in the last statement of a sequence was not reported upwards, so the
    # loop kept its `return` (an internal error) and its condition did not test the flag
    for tail in ("if (k == 3) return;", "if (threadIdx.x == 0) { if (k == 3) return; }"):
        k = lower(f"""
            __global__ void k(int *out) {{
                int acc = 0;
                /*@ loop invariant 0 <= k && k <= 4; */
                for (int k = 0; k < 4; k++) {{
                    if (k == threadIdx.x) continue;
                    acc++;
                    {tail}
                }}
                out[threadIdx.x] = acc;
            }}
            """)
        assert no_exits(k.body)
        (loop,) = loops(k.body)
        assert "return.1" in show_stmt(core.Seq((loop,)))
        assert "!return.1" in show_stmt(k.body).split("while", 1)[1].split("do", 1)[0]
