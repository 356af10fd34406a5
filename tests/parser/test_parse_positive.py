"""The parser on valid input: AST shapes, precedence, annotations, defines, spans."""

from __future__ import annotations

import textwrap

import pytest

from hoaregpu.errors import Span
from hoaregpu.frontend import parse_text
from hoaregpu.parser import parse_expr, parse_formula
from hoaregpu.syntax import (
    AnnotStmt,
    AssignOp,
    AssignStmt,
    BaseType,
    Block,
    ClauseKind,
    Decl,
    EmptyStmt,
    ForStmt,
    IfStmt,
    IncDec,
    SyncStmt,
    WhileStmt,
)
from hoaregpu.terms import (
    At,
    Binary,
    BinOp,
    Conditional,
    IntLit,
    Old,
    Quant,
    QuantKind,
    Term,
    ThreadCount,
    ThreadId,
    ThreadPred,
    ThreadPredKind,
    Unary,
    UnOp,
    Var,
)


def v(name: str, *idx: Term) -> Var:
    return Var(name, tuple(idx))


def b(op: str, left: Term, right: Term) -> Binary:
    return Binary(BinOp(op), left, right)


def i(n: int) -> IntLit:
    return IntLit(n)


def kernel_body(body: str, params: str = "int n") -> Block:
    spec = parse_text(f"__global__ void k({params}) {{\n{textwrap.dedent(body)}\n}}\n")
    return spec.kernels[0].body


VECTOR_ADD = """\
/*@ requires n >= 0;
    ensures \\forall int j; 0 <= j < n ==> c[j] == a[j] + b[j];
*/
__global__ void vector_add(int *a, int *b, int *c, int n) {
    int k = threadIdx.x;
    /*@ loop invariant k % blockDim.x == threadIdx.x && k >= threadIdx.x;
        loop invariant \\forall int j; 0 <= j < n && j % blockDim.x == threadIdx.x && j < k
                           ==> c[j] == a[j] + b[j];
    */
    while (k < n) {
        c[k] = a[k] + b[k];
        k = k + blockDim.x;
    }
}
"""


def test_vector_add_example() -> None:
    spec = parse_text(VECTOR_ADD, "vector_add.cu")
    assert spec.path == "vector_add.cu" and spec.defines == ()
    (k,) = spec.kernels
    assert k.name == "vector_add"
    assert [(p.name, p.type, p.dims) for p in k.params] == [
        ("a", BaseType.INT, 1),
        ("b", BaseType.INT, 1),
        ("c", BaseType.INT, 1),
        ("n", BaseType.INT, 0),
    ]
    assert [c.formula for c in k.requires] == [b(">=", v("n"), i(0))]
    (ens,) = k.ensures
    j = v("j")
    assert ens.formula == Quant(
        QuantKind.FORALL,
        ("j",),
        b(
            "==>",
            b("&&", b("<=", i(0), j), b("<", j, v("n"))),
            b("==", v("c", j), b("+", v("a", j), v("b", j))),
        ),
    )
    decl, loop = k.body.stmts
    assert isinstance(decl, Decl) and decl.declarators[0].init == ThreadId()
    assert isinstance(loop, WhileStmt)
    assert loop.cond == b("<", v("k"), v("n"))
    assert [c.kind for c in loop.invariants] == [ClauseKind.LOOP_INVARIANT] * 2
    assert loop.invariants[0].formula == b(
        "&&", b("==", b("%", v("k"), ThreadCount()), ThreadId()), b(">=", v("k"), ThreadId())
    )
    assert loop.body == Block(
        (
            AssignStmt(v("c", v("k")), AssignOp.SET, b("+", v("a", v("k")), v("b", v("k"))), span=None),  # type: ignore[arg-type]
            AssignStmt(v("k"), AssignOp.SET, b("+", v("k"), ThreadCount()), span=None),  # type: ignore[arg-type]
        ),
        span=None,  # type: ignore[arg-type]
    )


def test_spans_point_at_first_tokens() -> None:
    spec = parse_text(VECTOR_ADD, "va.cu")
    k = spec.kernels[0]
    assert k.span == Span("va.cu", 4, 1)
    assert k.params[3].span == Span("va.cu", 4, 52)
    assert k.requires[0].span == Span("va.cu", 1, 5)
    assert k.ensures[0].span == Span("va.cu", 2, 5)
    assert k.ensures[0].formula.span == Span("va.cu", 2, 13)  # the quantifier
    decl, loop = k.body.stmts
    assert decl.span == Span("va.cu", 5, 5)
    assert decl.declarators[0].init is not None and decl.declarators[0].init.span == Span("va.cu", 5, 13)
    assert isinstance(loop, WhileStmt) and loop.span == Span("va.cu", 10, 5)
    assert loop.invariants[1].span == Span("va.cu", 7, 9)
    assign = loop.body.stmts[1]  # type: ignore[union-attr]
    assert assign.span == Span("va.cu", 12, 9)
    assert assign.value.span == Span("va.cu", 12, 13)  # k + blockDim.x starts at k
    assert assign.value.right.span == Span("va.cu", 12, 17)


def test_tabs_count_as_one_column() -> None:
    k = parse_text("__global__ void k(int x) {\n\t\tx = 1;\n}\n", "t.cu").kernels[0]
    assert k.body.stmts[0].span == Span("t.cu", 2, 3)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1 + 2 * 3", b("+", i(1), b("*", i(2), i(3)))),
        ("1 - 2 - 3", b("-", b("-", i(1), i(2)), i(3))),
        ("8 / 4 / 2", b("/", b("/", i(8), i(4)), i(2))),
        ("a % b * c", b("*", b("%", v("a"), v("b")), v("c"))),
        ("1 << 2 + 3", b("<<", i(1), b("+", i(2), i(3)))),
        ("a < b << 1", b("<", v("a"), b("<<", v("b"), i(1)))),
        ("a == b < c", b("==", v("a"), b("<", v("b"), v("c")))),
        ("a != b", b("!=", v("a"), v("b"))),
        ("a || b && c", b("||", v("a"), b("&&", v("b"), v("c")))),
        ("a && b == c", b("&&", v("a"), b("==", v("b"), v("c")))),
        ("-a * b", b("*", Unary(UnOp.NEG, v("a")), v("b"))),
        ("!a && b", b("&&", Unary(UnOp.NOT, v("a")), v("b"))),
        ("- -a", Unary(UnOp.NEG, Unary(UnOp.NEG, v("a")))),
        ("+a", v("a")),
        ("(1 + 2) * 3", b("*", b("+", i(1), i(2)), i(3))),
        ("c ? x : y", Conditional(v("c"), v("x"), v("y"))),
        ("a ? b : c ? d : e", Conditional(v("a"), v("b"), Conditional(v("c"), v("d"), v("e")))),
        ("a || b ? 1 : 2", Conditional(b("||", v("a"), v("b")), i(1), i(2))),
        ("t[i][j + 1]", v("t", v("i"), b("+", v("j"), i(1)))),
        ("a[b[0]]", v("a", v("b", i(0)))),
        ("0x1F + 10u + 7U + 010", b("+", b("+", b("+", i(31), i(10)), i(7)), i(8))),
        ("true + false", b("+", i(1), i(0))),
        ("threadIdx.x + blockDim.x", b("+", ThreadId(), ThreadCount())),
        ("tid * ntid", b("*", ThreadId(), ThreadCount())),
        ("a >= b && c <= d", b("&&", b(">=", v("a"), v("b")), b("<=", v("c"), v("d")))),
        ("a >> 1 > 0", b(">", b(">>", v("a"), i(1)), i(0))),
    ],
)
def test_expression_precedence(text: str, expected: Term) -> None:
    assert parse_expr(text) == expected
    assert parse_formula(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("a ==> b ==> c", b("==>", v("a"), b("==>", v("b"), v("c")))),
        ("a <==> b ==> c", b("<==>", v("a"), b("==>", v("b"), v("c")))),
        ("a <==> b <==> c", b("<==>", b("<==>", v("a"), v("b")), v("c"))),
        ("a || b ==> c && d", b("==>", b("||", v("a"), v("b")), b("&&", v("c"), v("d")))),
        ("c ? x : y ==> z", b("==>", Conditional(v("c"), v("x"), v("y")), v("z"))),
        ("0 <= j < n", b("&&", b("<=", i(0), v("j")), b("<", v("j"), v("n")))),
        (
            "0 <= i <= j < n",
            b("&&", b("&&", b("<=", i(0), v("i")), b("<=", v("i"), v("j"))), b("<", v("j"), v("n"))),
        ),
        ("n > j >= 0", b("&&", b(">", v("n"), v("j")), b(">=", v("j"), i(0)))),
        ("a == b == c", b("&&", b("==", v("a"), v("b")), b("==", v("b"), v("c")))),
        ("x @ t", At(v("x"), v("t"))),
        ("x @ t + 1", b("+", At(v("x"), v("t")), i(1))),
        ("-x @ t", Unary(UnOp.NEG, At(v("x"), v("t")))),
        ("a[i] @ u[0]", At(v("a", v("i")), v("u", i(0)))),
        ("x @ (t + 1)", At(v("x"), b("+", v("t"), i(1)))),
        ("x @ t @ u", At(At(v("x"), v("t")), v("u"))),
        ("tid @ 3 == 3", b("==", At(ThreadId(), i(3)), i(3))),
        ("\\old(a[i]) + 1", b("+", Old(v("a", v("i"))), i(1))),
        ("\\all(x > 0)", ThreadPred(ThreadPredKind.ALL, b(">", v("x"), i(0)))),
        ("\\none(x == 0 ==> y)", ThreadPred(ThreadPredKind.NONE, b("==>", b("==", v("x"), i(0)), v("y")))),
        ("\\exists int i, j; i < j", Quant(QuantKind.EXISTS, ("i", "j"), b("<", v("i"), v("j")))),
        (
            "a && \\forall int j; p ==> q",
            b("&&", v("a"), Quant(QuantKind.FORALL, ("j",), b("==>", v("p"), v("q")))),
        ),
        (
            "(\\forall int j; p) && q",
            b("&&", Quant(QuantKind.FORALL, ("j",), v("p")), v("q")),
        ),
        (
            "\\forall int i; \\exists int j; a[i] == b[j]",
            Quant(
                QuantKind.FORALL,
                ("i",),
                Quant(QuantKind.EXISTS, ("j",), b("==", v("a", v("i")), v("b", v("j")))),
            ),
        ),
        (
            "\\forall unsigned int k; k < n",
            Quant(QuantKind.FORALL, ("k",), b("==>", b(">=", v("k"), i(0)), b("<", v("k"), v("n")))),
        ),
        (
            "\\exists size_t k; k < n",
            Quant(QuantKind.EXISTS, ("k",), b("&&", b(">=", v("k"), i(0)), b("<", v("k"), v("n")))),
        ),
        ("\\forall integer k; k == k", Quant(QuantKind.FORALL, ("k",), b("==", v("k"), v("k")))),
    ],
)
def test_formula_shapes(text: str, expected: Term) -> None:
    assert parse_formula(text) == expected


def test_statements() -> None:
    body = kernel_body(
        """
        int x = 1, y, buf[4];
        unsigned u; unsigned int w; bool f; size_t z; const int c = 2;
        __shared__ int s[256];
        __shared__ int t[16][16];
        x = 2; x += 1; x -= 1; x *= 2; x /= 2; x %= 3; x <<= 1; x >>= 1; x &= 1; x |= 1; x ^= 1;
        x++; x--; ++x; --x;
        t[x][y] = s[x];
        ;
        __syncthreads();
        { x = 1; }
        """
    )
    s = body.stmts
    assert isinstance(s[0], Decl) and not s[0].shared
    assert [(d.name, d.sizes, d.init) for d in s[0].declarators] == [
        ("x", (), i(1)),
        ("y", (), None),
        ("buf", (i(4),), None),
    ]
    assert [d.type for d in s[1:6]] == [  # type: ignore[union-attr]
        BaseType.UNSIGNED,
        BaseType.UNSIGNED,
        BaseType.BOOL,
        BaseType.UNSIGNED,  # size_t is Clang's `unsigned long`
        BaseType.INT,
    ]
    assert isinstance(s[6], Decl) and s[6].shared and s[6].declarators[0].sizes == (i(256),)
    assert isinstance(s[7], Decl) and s[7].declarators[0].sizes == (i(16), i(16))
    ops = [st.op for st in s[8:19]]  # type: ignore[union-attr]
    assert ops == list(AssignOp)
    assert [(st.target, st.delta) for st in s[19:23]] == [(v("x"), d) for d in (1, -1, 1, -1)]  # type: ignore[union-attr]
    assert all(isinstance(st, IncDec) for st in s[19:23])
    assert s[23] == AssignStmt(v("t", v("x"), v("y")), AssignOp.SET, v("s", v("x")), span=None)  # type: ignore[arg-type]
    assert isinstance(s[24], EmptyStmt) and isinstance(s[25], SyncStmt) and isinstance(s[26], Block)


def test_if_while_for() -> None:
    body = kernel_body(
        """
        int x, y, i;
        if (x) x = 1; else if (y) { y = 2; } else ;
        if (x) { }
        while (x < n) x++;
        for (int i = 0, j = 1; i < n; i++) { }
        for (;;) ;
        for (x = 0; ; x += 2) ;
        for (x--; x; --x) ;
        """
    )
    s = body.stmts[1:]
    assert isinstance(s[0], IfStmt) and isinstance(s[0].orelse, IfStmt)
    assert isinstance(s[0].orelse.orelse, EmptyStmt)
    assert isinstance(s[1], IfStmt) and s[1].orelse is None
    assert isinstance(s[2], WhileStmt) and isinstance(s[2].body, IncDec)
    f = s[3]
    assert isinstance(f, ForStmt) and isinstance(f.init, Decl) and len(f.init.declarators) == 2
    assert f.cond == b("<", v("i"), v("n")) and isinstance(f.step, IncDec)
    assert isinstance(s[4], ForStmt) and (s[4].init, s[4].cond, s[4].step) == (None, None, None)
    assert isinstance(s[5], ForStmt) and isinstance(s[5].init, AssignStmt) and s[5].cond is None
    assert isinstance(s[5].step, AssignStmt) and s[5].step.op is AssignOp.ADD
    assert isinstance(s[6], ForStmt) and isinstance(s[6].init, IncDec) and s[6].init.delta == -1


def test_params() -> None:
    spec = parse_text(
        "__global__ void k(const int *a, int b[], int t[][16], int **p, unsigned int n, unsigned m,"
        " size_t z, bool f, const int * const __restrict__ r, int c[8]) {}"
    )
    got = [(p.name, p.type, p.dims) for p in spec.kernels[0].params]
    assert got == [
        ("a", BaseType.INT, 1),
        ("b", BaseType.INT, 1),
        ("t", BaseType.INT, 2),
        ("p", BaseType.INT, 2),
        ("n", BaseType.UNSIGNED, 0),
        ("m", BaseType.UNSIGNED, 0),
        ("z", BaseType.UNSIGNED, 0),
        ("f", BaseType.BOOL, 0),
        ("r", BaseType.INT, 1),
        ("c", BaseType.INT, 1),
    ]
    assert parse_text("__global__ void k(void) {}").kernels[0].params == ()


def test_annotations_in_bodies() -> None:
    body = kernel_body(
        """
        int x, i;
        //@ assert x == 1;
        /*@ assert a; assume b; */
        /*@ */
        //@ loop invariant i >= 0;
        /*@ loop invariant i <= n; */
        for (i = 0; i < n; i++) ;
        /*@ loop invariant true; assert c; */
        while (0) ;
        if (x) //@ assert x != 0;
          x = 2;
        //@ assert done;
        """
    )
    s = body.stmts[1:]
    assert [type(st) for st in s] == [
        AnnotStmt,
        AnnotStmt,
        AnnotStmt,
        ForStmt,
        AnnotStmt,
        WhileStmt,
        IfStmt,
        AnnotStmt,
    ]
    assert [st.clause.kind for st in s if isinstance(st, AnnotStmt)] == [
        ClauseKind.ASSERT,
        ClauseKind.ASSERT,
        ClauseKind.ASSUME,
        ClauseKind.ASSERT,
        ClauseKind.ASSERT,
    ]
    assert isinstance(s[3], ForStmt)
    assert [c.formula for c in s[3].invariants] == [b(">=", v("i"), i(0)), b("<=", v("i"), v("n"))]
    assert isinstance(s[5], WhileStmt) and len(s[5].invariants) == 1
    then = s[6].then  # type: ignore[union-attr]
    assert isinstance(then, Block) and [type(st) for st in then.stmts] == [AnnotStmt, AssignStmt]


def test_acsl_comment_styles() -> None:
    spec = parse_text(
        "/*@ requires a > 0;\n"
        "  @ requires b > 0;\n"
        "  @ ensures c == 1; // a comment inside\n"
        "  @*/\n"
        "//@ requires d > 0; // trailing comment\n"
        "/* plain comment: requires nothing; */\n"
        "// another\n"
        "/*@requires e > 0;@*/\n"
        "__global__ void k() {}\n"
    )
    k = spec.kernels[0]
    assert [c.formula for c in k.requires] == [b(">", v(n), i(0)) for n in "abde"]
    assert [c.formula for c in k.ensures] == [b("==", v("c"), i(1))]


def test_multiple_kernels_and_contracts() -> None:
    spec = parse_text(
        "//@ requires n > 0;\n__global__ void a(int n) {}\n"
        "__global__ void b() {}\n"
        "/*@ ensures true; */ /*@ requires true; */\n__global__ void c() {}\n"
    )
    assert [k.name for k in spec.kernels] == ["a", "b", "c"]
    assert [(len(k.requires), len(k.ensures)) for k in spec.kernels] == [(1, 0), (0, 0), (1, 1)]


def test_defines() -> None:
    spec = parse_text(
        "#include <cuda_runtime.h>\n"
        "#define N 256\n"
        "#define M (N * 2) // doubled\n"
        "  #  define  K 0x10\n"
        "//@ requires n == M;\n"
        "__global__ void k(int n) { __shared__ int s[N]; s[K] = N; }\n",
        "d.cu",
    )
    assert [(d.name, d.value) for d in spec.defines] == [
        ("N", i(256)),
        ("M", b("*", i(256), i(2))),
        ("K", i(16)),
    ]
    assert spec.defines[1].span == Span("d.cu", 3, 9)
    k = spec.kernels[0]
    assert k.requires[0].formula == b("==", v("n"), b("*", i(256), i(2)))
    assert k.requires[0].formula.right.span == Span("d.cu", 5, 19)  # type: ignore[union-attr]
    decl, assign = k.body.stmts
    assert decl.declarators[0].sizes == (i(256),)  # type: ignore[union-attr]
    assert assign == AssignStmt(v("s", i(16)), AssignOp.SET, i(256), span=None)  # type: ignore[arg-type]


def test_define_applies_only_after_it() -> None:
    spec = parse_text(
        "__global__ void k(int N) { N = 1; }\n#define N 3\n__global__ void h(int x) { x = N; }\n"
    )
    assert spec.kernels[0].body.stmts[0].target == v("N")  # type: ignore[union-attr]
    assert spec.kernels[1].body.stmts[0].value == i(3)  # type: ignore[union-attr]


def test_tid_variable_shadows_the_annotation_builtin() -> None:
    """`int tid = threadIdx.x;` is an ordinary C variable; in annotations `tid` then means it."""
    spec = parse_text(
        "__global__ void k(int *a) {\n  int tid = threadIdx.x;\n  //@ assert tid == ntid - ntid + tid;\n}\n"
        "//@ requires tid >= 0;\n__global__ void h(int tid) {}\n"
    )
    k, h = spec.kernels
    decl, annot = k.body.stmts
    assert isinstance(decl, Decl) and decl.declarators[0].init == ThreadId()
    assert isinstance(annot, AnnotStmt)
    tid = v("tid")
    assert annot.clause.formula == b("==", tid, b("+", b("-", ThreadCount(), ThreadCount()), tid))
    assert h.requires[0].formula == b(">=", tid, i(0))


def test_tid_is_the_builtin_without_a_variable() -> None:
    spec = parse_text("//@ requires tid < ntid;\n__global__ void k(int *a) { a[tid] = ntid; }\n")
    k = spec.kernels[0]
    assert k.requires[0].formula == b("<", ThreadId(), ThreadCount())
    assert k.body.stmts[0] == AssignStmt(v("a", ThreadId()), AssignOp.SET, ThreadCount(), span=None)  # type: ignore[arg-type]


def test_integer_types_are_mathematical_integers() -> None:
    body = kernel_body(
        """
        char c; short s; long l; long long ll; unsigned char uc; unsigned short us;
        unsigned long ul; uint32_t w; int64_t q; signed char sc;
        """
    )
    types = [d.type for d in body.stmts]  # type: ignore[union-attr]
    assert types == [BaseType.INT] * 4 + [BaseType.UNSIGNED] * 3 + [
        BaseType.UNSIGNED,
        BaseType.INT,
        BaseType.INT,
    ]


def test_constants_clang_evaluates() -> None:
    """sizeof, character and long literals, enum constants and value-preserving casts."""
    spec = parse_text(
        "enum { RED = 2, GREEN };\n"
        "__global__ void k(int n, unsigned u) {\n"
        "  n = sizeof(int) + 'a' + 10L + GREEN;\n"
        "  n = (long)n + (int)u + (short)1;\n"
        "  u = (unsigned)u + (bool)n;\n"
        "}\n"
    )
    s1, s2, s3 = spec.kernels[0].body.stmts
    assert s1.value == b("+", b("+", b("+", i(4), i(97)), i(10)), i(3))  # type: ignore[union-attr]
    assert s2.value == b("+", b("+", v("n"), v("u")), i(1))  # type: ignore[union-attr]
    assert s3.value == b("+", v("u"), b("!=", v("n"), i(0)))  # type: ignore[union-attr]


def test_signed_to_unsigned_cast_is_marked_only_where_c_reads_it() -> None:
    """`(unsigned)n` is n modulo 2^32: stored back into an int it is n; compared, it must
    not be negative (hoaregpu/unsigned.py turns the mark into an unsigned-wrap check)."""
    from hoaregpu.terms import Unsigned

    spec = parse_text(
        "__global__ void k(int n, int *a) {\n  n = (unsigned)n;\n  a[0] = (unsigned)n < 5u;\n}\n"
    )
    s1, s2 = spec.kernels[0].body.stmts
    assert s1.value == v("n")  # type: ignore[union-attr]
    assert s2.value == b("<", Unsigned(v("n")), i(5))  # type: ignore[union-attr]


def test_comparison_chain_in_code_means_what_c_says() -> None:
    """`1 < 2 < 3` in C is `(1 < 2) < 3`; only annotations read it as a chain."""
    body = kernel_body("n = 1 < 2 < 3;")
    assert body.stmts[0].value == b("<", b("<", i(1), i(2)), i(3))  # type: ignore[union-attr]
    assert parse_formula("1 < 2 < 3") == b("&&", b("<", i(1), i(2)), b("<", i(2), i(3)))


def test_declarators_share_the_enclosing_scope() -> None:
    """`int x = 1, y;` declares x and y for the rest of the block (not in a block of their own)."""
    from hoaregpu.lower import lower_file

    spec = parse_text("__global__ void k(int *a) {\n  int x = 1, y;\n  y = x;\n  a[0] = y;\n}\n")
    (decl, *_rest) = spec.kernels[0].body.stmts
    assert isinstance(decl, Decl) and [d.name for d in decl.declarators] == ["x", "y"]
    (kernel,) = lower_file(spec)
    assert {"x", "y"} <= {d.name for d in kernel.decls}


def test_extern_shared_array() -> None:
    from hoaregpu.lower import lower_file

    spec = parse_text(
        "//@ ensures s[0] == 1;\n__global__ void k(int n) {\n  extern __shared__ int s[];\n  s[0] = 1;\n}\n"
    )
    decl, assign = spec.kernels[0].body.stmts
    assert isinstance(decl, Decl) and decl.shared and len(decl.declarators[0].sizes) == 1
    assert assign == AssignStmt(v("s", i(0)), AssignOp.SET, i(1), span=None)  # type: ignore[arg-type]
    (kernel,) = lower_file(spec)
    assert kernel.decl("s").dim == 1


def test_host_code_and_other_declarations_are_ignored() -> None:
    """A real .cu file: host code that allocates, launches and copies is parsed by Clang
    (declarations from the stand-in headers) and not verified."""
    spec = parse_text(
        "#include <cuda_runtime.h>\n"
        "struct P { float x; };\n"
        "__device__ float twice(float y) { return 2 * y; }\n"
        "//@ requires n > 0;\n"
        "__global__ void k(int n, int *a) { a[0] = n; }\n"
        "__global__ void declared_only(int n);\n"
        "int main() {\n"
        "  int *d, h[4];\n"
        "  cudaMalloc(&d, sizeof h);\n"
        "  k<<<1, 32>>>(3, d);\n"
        "  k<<<dim3(1), dim3(32), 0>>>(3, d);\n"
        "  cudaDeviceSynchronize();\n"
        "  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);\n"
        "  return cudaFree(d);\n"
        "}\n",
        "h.cu",
    )
    (k,) = spec.kernels
    assert k.name == "k" and [c.formula for c in k.requires] == [b(">", v("n"), i(0))]


def test_kernels_inside_extern_c_and_namespaces_are_found() -> None:
    text = (
        'extern "C" {\n//@ ensures a[0] == 1;\n__global__ void k(int *a) { a[0] = 1; }\n}\n'
        "namespace ns {\n__global__ void m(int *a) { a[0] = 2; }\n}\n"
    )
    spec = parse_text(text)
    assert [k.name for k in spec.kernels] == ["k", "m"]
    assert spec.kernels[0].ensures[0].span.line == 2
