"""The monotonic-loop transform of §4.1 and its Lemma 4.4 check."""

from __future__ import annotations

from pipeline_kit import PROVED, REFUTED, line_of, lower, verdicts

from hoaregpu import core
from hoaregpu.core import Assign, Seq, VarKind, VarRole, While
from hoaregpu.terms import Binary, BinOp, IntLit, ThreadId, Var
from hoaregpu.transform import is_monotonic_by_lemma_4_4, make_monotonic, shared_vars_read

# `unsigned *x`: compared with tid, an int x[tid] would be converted to unsigned and get an
# unsigned-wrap check (hoaregpu/unsigned.py), which is not what these tests are about
NONMONOTONIC = """
    __global__ void k(unsigned *x, int *y) {
        int i = 0;
        /*@ loop invariant i >= 0; */
        while (x[tid] == tid) {
            x[0] = 1;
            i = i + 1;
        }
        y[tid] = i;
    }
    """


def test_loop_reading_a_shared_array_written_in_its_body_is_transformed_exactly() -> None:
    before = lower(NONMONOTONIC)
    after = make_monotonic(before)
    cond = Binary(BinOp.EQ, Var("x", (ThreadId(),)), ThreadId())
    body = (Assign("x", (IntLit(0),), IntLit(1)), Assign("i", (), Binary(BinOp.ADD, Var("i"), IntLit(1))))
    (old_loop,) = [s for s in before.body.stmts if isinstance(s, While)]  # type: ignore[union-attr]
    assert old_loop.cond == cond and old_loop.body == Seq(body)

    # z := e; while z do (P; z := e), with a fresh local z and the invariants kept.
    init, transformed, write_y = after.body.stmts  # type: ignore[union-attr]
    assert init == Assign("i", (), IntLit(0))
    assert write_y == Assign("y", (ThreadId(),), Var("i"))
    assert transformed == Seq(
        (
            Assign("z.1", (), cond),
            While(Var("z.1"), Seq((*body, Assign("z.1", (), cond))), old_loop.invariants),
        )
    )
    assert after.decls == (*before.decls, core.VarDecl("z.1", VarKind.LOCAL, 0, VarRole.SYNTHETIC))
    # The loop keeps its source position (VCs and --show-core point at it).
    new_loop = transformed.stmts[1]
    assert isinstance(new_loop, While)
    assert new_loop.span is not None and new_loop.span.line == line_of(NONMONOTONIC, "while")
    assert not is_monotonic_by_lemma_4_4(before, old_loop)
    assert is_monotonic_by_lemma_4_4(after, new_loop)


def test_loop_body_that_is_one_statement_gets_a_sequence() -> None:
    k = make_monotonic(lower("__global__ void k(int *a) { while (a[0] > 0) a[0] = a[0] - 1; }"))
    cond = Binary(BinOp.GT, Var("a", (IntLit(0),)), IntLit(0))
    dec = Assign("a", (IntLit(0),), Binary(BinOp.SUB, Var("a", (IntLit(0),)), IntLit(1)))
    assert k.body == Seq((Assign("z.1", (), cond), While(Var("z.1"), Seq((dec, Assign("z.1", (), cond))))))


def test_loops_reading_only_locals_or_unassigned_shared_are_untouched() -> None:
    src = """
        __global__ void k(int *a, int *b, int n) {
            int i = 0;
            while (i < n) { a[i] = 0; i = i + 1; }
            while (b[tid] > i) { i = i + 1; a[tid] = b[tid]; }
            while (tid < i) { i = i - 1; }
        }
        """
    k = lower(src)
    loops = [s for s in k.body.stmts if isinstance(s, While)]  # type: ignore[union-attr]
    assert len(loops) == 3
    assert [shared_vars_read(k, lp.cond) for lp in loops] == [{"n"}, {"b"}, set()]
    assert all(is_monotonic_by_lemma_4_4(k, lp) for lp in loops)
    assert make_monotonic(k) is k  # nothing to do: the very same kernel


def test_shared_scalar_parameter_assigned_becomes_local_so_its_loop_is_monotonic() -> None:
    # `n` is assigned, hence a per-thread local (lowering), hence stable under the body.
    k = lower("__global__ void k(int n) { while (n > 0) { n = n - 1; } }")
    assert k.decl("n").kind is VarKind.LOCAL
    assert make_monotonic(k) is k


def test_nested_loops_each_checked_on_its_own_body() -> None:
    src = """
        __global__ void k(int *a, int *b) {
            int i = 0;
            while (i < 4) {
                while (a[0] > 0) { a[0] = a[0] - 1; }
                i = i + 1;
            }
            while (b[0] > 0) {
                int j = 0;
                while (j < 2) { b[j] = 0; j = j + 1; }
            }
        }
        """
    k = make_monotonic(lower(src))
    _, outer1, outer2 = k.body.stmts  # type: ignore[union-attr]
    # Outer loop 1 reads only the local i: untouched; its inner loop is transformed.
    assert isinstance(outer1, While) and outer1.cond == Binary(BinOp.LT, Var("i"), IntLit(4))
    inner1 = outer1.body.stmts[0]  # type: ignore[union-attr]
    assert isinstance(inner1, Seq) and inner1.stmts[0].target == "z.1"  # type: ignore[union-attr]
    # Outer loop 2 reads b, written only by the inner loop: transformed (assigned_vars recurses),
    # while the inner loop (condition on the local j) is not.
    assert isinstance(outer2, Seq)
    z2_init, loop2 = outer2.stmts
    assert z2_init == Assign("z.2", (), Binary(BinOp.GT, Var("b", (IntLit(0),)), IntLit(0)))
    assert isinstance(loop2, While) and loop2.cond == Var("z.2")
    j_init, inner2, update = loop2.body.stmts  # type: ignore[union-attr]
    assert j_init == Assign("j", (), IntLit(0)) and update == Assign("z.2", (), z2_init.value)
    assert isinstance(inner2, While) and inner2.cond == Binary(BinOp.LT, Var("j"), IntLit(2))
    assert [d.name for d in k.decls if d.role is VarRole.SYNTHETIC] == ["z.1", "z.2"]


def test_fresh_names_do_not_clash_with_user_variables() -> None:
    # Shadowing renames a user's `z` to `z.1` and `z.2`: the transform must skip those names.
    src = """
        __global__ void k(int *a) {
            int z = 0;
            { int z = 1; a[1] = z; }
            { int z = 2; a[2] = z; }
            while (a[0] > z) { a[0] = a[0] - 1; }
            while (a[3] > z) { a[3] = a[3] - 1; }
        }
        """
    before = lower(src)
    assert {"z", "z.1", "z.2"} <= {d.name for d in before.decls}
    after = make_monotonic(before)
    names = [d.name for d in after.decls]
    assert len(names) == len(set(names))
    synthetic = [d.name for d in after.decls if d.role is VarRole.SYNTHETIC]
    assert len(synthetic) == 2 and not set(synthetic) & {"z", "z.1", "z.2"}
    # The user's variables are still assigned as before.
    assert Assign("z.1", (), IntLit(1)) in after.body.stmts  # type: ignore[union-attr]


# The paper's §4.1 counterexample: without the transform H-WHILE "proves" a false
# postcondition; with it the same postcondition is refuted. From x = {0, 0}, thread 0 runs
# the body once (x becomes {1, 1}) and thread 1 never enters, so at the end x[1] == 1.
PAPER_4_1 = """
    /*@ requires blockDim.x == 2;
        requires x[0] == 0 && x[1] == 0;
        ensures \\none(x[tid] == tid);
    */
    __global__ void k(unsigned *x) {
        /*@ loop invariant \\exists int i; 0 <= i < blockDim.x && x[i] == i; */
        while (x[tid] == tid) {
            x[0] = 1;
            x[1] = 1;
        }
    }
    """


def test_paper_section_4_1_loop_is_unsound_without_the_transform_and_refuted_with_it() -> None:
    untransformed = {(v.kind, v.outcome) for v in verdicts(PAPER_4_1, transform=False)}
    assert untransformed == {
        ("loop-invariant-entry", PROVED),
        ("loop-invariant-preserved", PROVED),
        ("postcondition", PROVED),  # the unsound "proof" the transform exists to prevent
    }
    transformed = {v.kind: v.outcome for v in verdicts(PAPER_4_1)}
    assert transformed == {
        "loop-invariant-entry": PROVED,
        "loop-invariant-preserved": PROVED,
        "postcondition": REFUTED,
    }


def test_thread_private_cells_keep_the_loop_as_is() -> None:
    """Lemma 4.4 extended: the condition reads a[tid] and the body writes only a[tid], so an
    inactive thread's condition cannot change; no transform is needed."""
    k = lower(
        """
        __global__ void k(int *a) {
            while (a[threadIdx.x] < 10) { a[threadIdx.x] = a[threadIdx.x] + 1; }
        }
        """
    )
    assert make_monotonic(k) is k


def test_a_write_to_another_threads_cell_needs_the_transform() -> None:
    k = lower(
        """
        __global__ void k(int *a) {
            while (a[threadIdx.x] < 10) { a[threadIdx.x + 1] = a[threadIdx.x] + 1; }
        }
        """
    )
    out = make_monotonic(k)
    assert out is not k
    assert any(d.name.startswith("z.") for d in out.decls)
