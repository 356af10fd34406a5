"""Lowering (surface → core): declarations, renaming, sugar, parameters, errors, contracts."""

from __future__ import annotations

import pytest
from pipeline_kit import PATH, line_of, lower

from hoaregpu import core
from hoaregpu.core import Assert, Assign, CheckKind, Formula, If, Seq, Skip, VarKind, VarRole, While
from hoaregpu.errors import SpecError
from hoaregpu.terms import Binary, BinOp, IntLit, ThreadCount, ThreadId, Unary, UnOp, Var


def v(name: str, *idx: object) -> Var:
    return Var(name, tuple(IntLit(i) if isinstance(i, int) else i for i in idx))  # type: ignore[misc]


def b(op: BinOp, left: object, right: object) -> Binary:
    def t(x: object) -> object:
        return IntLit(x) if isinstance(x, int) else x

    return Binary(op, t(left), t(right))  # type: ignore[arg-type]


def stmts(k: core.Kernel) -> tuple[core.Stmt, ...]:
    return k.body.stmts if isinstance(k.body, Seq) else (k.body,)


def decl_names(k: core.Kernel) -> list[str]:
    return [d.name for d in k.decls]


# -- declarations -----------------------------------------------------------------------


def test_declaration_with_and_without_initialiser() -> None:
    k = lower(
        """
        __global__ void k() {
            int x;
            int y = 3, z;
            x = y;
        }
        """
    )
    assert decl_names(k) == ["x", "y", "z"]
    for d in k.decls:
        assert (d.kind, d.dim, d.role, d.source_name) == (VarKind.LOCAL, 0, VarRole.LOCAL, None)
    # `int x;` and `z` make no statement; `y = 3` becomes an assignment.
    assert stmts(k) == (Assign("y", (), IntLit(3)), Assign("x", (), v("y")))


def test_declarations_only_body_is_skip_or_empty_sequence() -> None:
    k = lower("__global__ void k() { int x; __shared__ int s[4]; }")
    assert k.body in (Seq(()), Skip())
    assert [(d.name, d.kind, d.dim, d.role) for d in k.decls] == [
        ("x", VarKind.LOCAL, 0, VarRole.LOCAL),
        ("s", VarKind.SHARED, 1, VarRole.SHARED_ARRAY),
    ]


def test_shared_declarations_and_local_arrays_have_their_dimension() -> None:
    k = lower(
        """
        __global__ void k() {
            __shared__ int s;
            __shared__ int t[16][16];
            int buf[4];
            buf[2] = t[1][tid];
        }
        """
    )
    assert [(d.name, d.kind, d.dim) for d in k.decls] == [
        ("s", VarKind.SHARED, 0),
        ("t", VarKind.SHARED, 2),
        ("buf", VarKind.LOCAL, 1),
    ]
    # the row index `tid` of `t[16][16]` is checked to stay in its row (C's memory is row-major)
    assert isinstance(k.body, Seq)
    check, assign = k.body.stmts
    assert isinstance(check, Assert) and check.check is CheckKind.INDEX_BOUNDS
    assert assign == Assign("buf", (IntLit(2),), Var("t", (IntLit(1), ThreadId())))


def test_shared_initialiser_is_rejected() -> None:
    with pytest.raises(SpecError, match="__shared__"):
        lower("__global__ void k() { __shared__ int s = 1; }")


def test_shadowing_declarations_are_renamed_with_dots() -> None:
    src = """
        /*@ ensures x == 1; */
        __global__ void k(int *a) {
            int x = 1;
            if (tid < 2) {
                int x = 2;
                x = x + 1;
                a[tid] = x;
            }
            {
                int x = 5;
                a[0] = x;
            }
            a[1] = x;
        }
        """
    k = lower(src)
    assert decl_names(k) == ["a", "x", "x.1", "x.2"]
    assert k.decl("x").source_name is None
    assert k.decl("x.1").source_name == "x" and k.decl("x.1").display_name == "x"
    assert k.decl("x.2").source_name == "x"
    assign_x, branch, assign_x2, read_x2, read_x = stmts(k)
    assert assign_x == Assign("x", (), IntLit(1))
    assert isinstance(branch, If)
    assert branch.then == Seq(
        (
            Assign("x.1", (), IntLit(2)),
            Assign("x.1", (), b(BinOp.ADD, v("x.1"), 1)),
            Assign("a", (ThreadId(),), v("x.1")),
        )
    )
    assert branch.orelse == Skip()
    assert (assign_x2, read_x2) == (Assign("x.2", (), IntLit(5)), Assign("a", (IntLit(0),), v("x.2")))
    # After the blocks, `x` is the outer one again, and so it is in `ensures`.
    assert read_x == Assign("a", (IntLit(1),), v("x"))
    assert k.ensures[0].term == b(BinOp.EQ, v("x"), 1)


def test_redeclaration_in_the_same_scope_is_an_error_with_its_line() -> None:
    src = """
        __global__ void k() {
            int x = 1;
            int x = 2;
        }
        """
    with pytest.raises(SpecError, match="redefinition of 'x'") as e:  # reported by Clang
        lower(src)
    assert e.value.span.line == line_of(src, "int x = 2")


# -- statements: compound assignments, ++/--, for, bool ----------------------------------


@pytest.mark.parametrize(
    ("stmt", "op", "amount"),
    [
        ("x += 2;", BinOp.ADD, 2),
        ("x -= 2;", BinOp.SUB, 2),
        ("x *= 3;", BinOp.MUL, 3),
        ("x /= 3;", BinOp.DIV, 3),
        ("x %= 3;", BinOp.MOD, 3),
        ("x <<= 1;", BinOp.SHL, 1),
        ("x >>= 1;", BinOp.SHR, 1),
        ("x++;", BinOp.ADD, 1),
        ("++x;", BinOp.ADD, 1),
        ("x--;", BinOp.SUB, 1),
        ("--x;", BinOp.SUB, 1),
    ],
)
def test_compound_assignment_and_increment(stmt: str, op: BinOp, amount: int) -> None:
    k = lower(f"__global__ void k() {{ int x; {stmt} }}")
    assert k.body == Assign("x", (), b(op, v("x"), amount))


def test_compound_assignment_to_an_array_cell_reads_the_same_cell() -> None:
    k = lower("__global__ void k(int *a, int t[][8]) { a[tid] += 1; t[1][tid]--; }")
    first, check, second = stmts(k)
    assert first == Assign("a", (ThreadId(),), b(BinOp.ADD, Var("a", (ThreadId(),)), 1))
    # one `index-bounds` check for the cell read and written (its row has 8 cells)
    assert isinstance(check, Assert) and check.check is CheckKind.INDEX_BOUNDS
    assert second == Assign("t", (IntLit(1), ThreadId()), b(BinOp.SUB, Var("t", (IntLit(1), ThreadId())), 1))


def test_for_becomes_init_then_while_with_step_at_the_end_of_the_body() -> None:
    src = """
        __global__ void k(int *a, int n) {
            /*@ loop invariant 0 <= i; */
            for (int i = 0; i < n; i++) {
                a[i] = i;
            }
            int i = 7;
        }
        """
    k = lower(src)
    init, loop, after = stmts(k)
    assert init == Assign("i", (), IntLit(0))
    assert isinstance(loop, While)
    assert loop.cond == b(BinOp.LT, v("i"), v("n"))
    assert loop.body == Seq((Assign("a", (v("i"),), v("i")), Assign("i", (), b(BinOp.ADD, v("i"), 1))))
    assert loop.invariants == (Formula(b(BinOp.LE, 0, v("i")), None),)  # type: ignore[arg-type]
    assert loop.invariants[0].span.line == line_of(src, "loop invariant")
    # The loop variable's scope ends with the loop: a later `int i` is a new variable.
    assert after == Assign("i.1", (), IntLit(7))


def test_for_without_init_cond_or_step() -> None:
    k = lower("__global__ void k(int *a) { for (;;) { a[0] = 1; } }")
    assert k.body == While(IntLit(1), Assign("a", (IntLit(0),), IntLit(1)), ())


def test_assignment_to_bool_converts_to_zero_or_one() -> None:
    k = lower(
        """
        __global__ void k(int n) {
            bool p = n;
            bool q = n < 3;
            bool r = !n;
            bool s = n && q;
            p = 5;
            q += 1;
        }
        """
    )
    assert stmts(k) == (
        Assign("p", (), b(BinOp.NE, v("n"), 0)),
        Assign("q", (), b(BinOp.LT, v("n"), 3)),
        Assign("r", (), Unary(UnOp.NOT, v("n"))),
        Assign("s", (), b(BinOp.AND, v("n"), v("q"))),
        Assign("p", (), b(BinOp.NE, IntLit(5), 0)),
        Assign("q", (), b(BinOp.NE, b(BinOp.ADD, v("q"), 1), 0)),
    )


def test_int_assignment_is_not_converted() -> None:
    k = lower("__global__ void k(int n) { int x = n; }")
    assert k.body == Assign("x", (), v("n"))


def test_sync_empty_statement_and_annotations() -> None:
    k = lower(
        """
        __global__ void k(int *a) {
            ;
            __syncthreads();
            //@ assert a[0] == 1;
            //@ assume a[1] == 2;
        }
        """
    )
    sync, asrt, asm = stmts(k)
    assert isinstance(sync, core.Sync)
    assert isinstance(asrt, core.Assert) and asrt.formula.term == b(BinOp.EQ, v("a", 0), 1)
    assert isinstance(asm, core.Assume) and asm.formula.term == b(BinOp.EQ, v("a", 1), 2)


# -- parameters -------------------------------------------------------------------------


def test_parameters_kinds_roles_and_dimensions() -> None:
    k = lower(
        """
        __global__ void k(int *a, int b[], int t[][16], int n, int m, unsigned u, size_t s) {
            m = m + n + u + s;
        }
        """
    )
    assert k.params == ("a", "b", "t", "n", "m", "u", "s")
    got = {d.name: (d.kind, d.dim, d.role, d.nonnegative) for d in k.decls}
    assert got == {
        "a": (VarKind.SHARED, 1, VarRole.ARRAY_PARAM, False),
        "b": (VarKind.SHARED, 1, VarRole.ARRAY_PARAM, False),
        "t": (VarKind.SHARED, 2, VarRole.ARRAY_PARAM, False),
        "n": (VarKind.SHARED, 0, VarRole.SCALAR_PARAM, False),  # never assigned: one uniform value
        "m": (VarKind.LOCAL, 0, VarRole.SCALAR_PARAM, False),  # assigned: a per-thread copy
        "u": (VarKind.SHARED, 0, VarRole.SCALAR_PARAM, True),
        "s": (VarKind.SHARED, 0, VarRole.SCALAR_PARAM, True),
    }


@pytest.mark.parametrize(
    "stmt",
    ["n++;", "n -= 1;", "if (tid < 1) { n = 0; }", "while (n > 0) { n = n - 1; }", "for (;;) { n = 1; }"],
)
def test_scalar_parameter_assigned_anywhere_is_local(stmt: str) -> None:
    k = lower(f"__global__ void k(int n) {{ {stmt} }}")
    assert k.decl("n").kind is VarKind.LOCAL and k.decl("n").role is VarRole.SCALAR_PARAM


# -- errors -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "needle", "message"),
    [
        # Clang checks names and types of the program part now (its messages, its positions)
        ("int x = 1;\n    y = x;", "y = x", "undeclared identifier 'y'"),
        ("int x = 1;\n    x = q + 1;", "q + 1", "undeclared identifier 'q'"),
        ("int x = 1;\n    a[0][1] = x;", "a[0][1]", "subscripted value is not an array"),
        ("int x = 1;\n    x = a[0][1];", "a[0][1]", "subscripted value is not an array"),
        ("int x = 1;\n    x = n[0];", "n[0]", "subscripted value is not an array"),
        ("int x = 1;\n    x = a;", "x = a", "incompatible pointer to integer conversion"),
        ("int x = 1;\n    x[0] = 1;", "x[0]", "subscripted value is not an array"),
    ],
)
def test_unknown_variable_and_wrong_index_count_are_spec_errors_with_line(
    body: str, needle: str, message: str
) -> None:
    src = f"__global__ void k(int *a, int n) {{\n    {body}\n}}\n"
    with pytest.raises(SpecError, match=message) as e:
        lower(src)
    assert e.value.span.path == PATH
    assert e.value.span.line == line_of(src, needle)


def test_unknown_variable_in_a_clause_is_an_error_and_bound_variables_are_allowed() -> None:
    src = """
        /*@ ensures \\forall int j; 0 <= j < n ==> a[j] == 0;
            ensures a[k] == 0;
        */
        __global__ void k(int *a, int n) { }
        """
    with pytest.raises(SpecError, match="unknown variable 'k'") as e:
        lower(src)
    assert e.value.span.line == line_of(src, "a[k]")


def test_ensures_sees_top_level_locals_but_not_inner_ones() -> None:
    ok = lower(
        """
        /*@ ensures r == a[0]; */
        __global__ void k(int *a) { int r = a[0]; }
        """
    )
    assert ok.ensures[0].term == b(BinOp.EQ, v("r"), v("a", 0))
    src = """
        /*@ ensures r == 1; */
        __global__ void k(int *a) { if (tid < 1) { int r = 1; } }
        """
    with pytest.raises(SpecError, match="unknown variable 'r'") as e:
        lower(src)
    assert e.value.span.line == 1


def test_requires_does_not_see_body_locals() -> None:
    with pytest.raises(SpecError, match="unknown variable 'r'"):
        lower("/*@ requires r == 1; */ __global__ void k() { int r = 1; }")


def test_loop_invariant_sees_variables_declared_before_the_loop_in_a_branch() -> None:
    k = lower(
        """
        __global__ void k() {
            if (tid < 2) {
                int j = 0;
                /*@ loop invariant j <= 3; */
                while (j < 3) { j++; }
            }
        }
        """
    )
    assert isinstance(k.body, If)
    loop = k.body.then.stmts[1]  # type: ignore[union-attr]
    assert isinstance(loop, While) and loop.invariants[0].term == b(BinOp.LE, v("j"), 3)


# -- fixed thread count -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("clause", "expected"),
    [
        ("requires blockDim.x == 256;", 256),
        ("requires 8 == blockDim.x;", 8),
        ("requires ntid == 2;", 2),
        ("requires n > 0; requires blockDim.x == 4;", 4),
        ("requires blockDim.x >= 4;", None),
        ("requires blockDim.x == n;", None),
        ("ensures blockDim.x == 4;", None),
        ("", None),
    ],
)
def test_requires_blockdim_equal_literal_fixes_the_thread_count(clause: str, expected: int | None) -> None:
    k = lower(f"/*@ {clause} */ __global__ void k(int n) {{ }}" if clause else "__global__ void k(int n) { }")
    assert k.fixed_threads == expected
    if expected is not None:
        assert any(
            isinstance(f.term, Binary) and ThreadCount() in (f.term.left, f.term.right) for f in k.requires
        )


def test_outermost_declaration_may_not_redeclare_a_parameter() -> None:
    """C: a function's parameters and its outermost block share one scope."""
    from hoaregpu.errors import SpecError
    from hoaregpu.frontend import parse_text
    from hoaregpu.lower import lower_file

    src = "__global__ void k(int *a, int n) {\n    int n = 5;\n    a[0] = n;\n}\n"
    with pytest.raises(SpecError) as err:
        lower_file(parse_text(src, "redecl.cu"))
    assert err.value.span.line == 2
    assert "redefinition of 'n'" in err.value.message  # reported by Clang
