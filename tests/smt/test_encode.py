"""The Encoder: symbols and arities, e@t, thread reading of clauses, C arithmetic, entry facts."""

from __future__ import annotations

import pytest
from pipeline_kit import PROVED, REFUTED, decide, lower, verdicts
from pysmt.fnode import FNode
from pysmt.shortcuts import And, Equals, Int
from pysmt.typing import INT, FunctionType

from hoaregpu.driver import fresh_env
from hoaregpu.parser import parse_expr, parse_formula
from hoaregpu.smt.encode import Encoder, Mask
from hoaregpu.vc.generate import entry_facts

KERNEL = lower(
    """
    __global__ void k(int *a, int t[][4], int n, int m) {
        __shared__ int s;
        int x;
        int buf[4];
        m = 1;
    }
    """
)


def test_symbol_arities_follow_the_paper() -> None:
    # Shared of dimension n: n-ary; local of dimension n: (n+1)-ary, thread first.
    with fresh_env() as env:
        enc = Encoder(KERNEL, env)
        types = {name: enc.symbol(name).symbol_type() for name in ("a", "t", "n", "m", "s", "x", "buf")}
    assert types == {
        "a": FunctionType(INT, [INT]),
        "t": FunctionType(INT, [INT, INT]),
        "n": INT,
        "m": FunctionType(INT, [INT]),  # an assigned scalar parameter is local
        "s": INT,
        "x": FunctionType(INT, [INT]),
        "buf": FunctionType(INT, [INT, INT]),
    }


def test_expression_at_a_thread_is_definition_3_3() -> None:
    with fresh_env() as env:
        enc = Encoder(KERNEL, env)
        m = enc.mgr
        th = m.Symbol("th", INT)
        got = enc.at(parse_expr("buf[x] + a[tid] + t[n][s] + blockDim.x"), th)
        x_at = m.Function(enc.symbol("x"), [th])
        want = m.Plus(
            m.Plus(
                m.Plus(m.Function(enc.symbol("buf"), [th, x_at]), m.Function(enc.symbol("a"), [th])),
                m.Function(enc.symbol("t"), [enc.symbol("n"), enc.symbol("s")]),
            ),
            enc.ntid,
        )
        assert got == want


def test_fixed_thread_count_is_a_literal_and_symbolic_is_a_constant() -> None:
    with fresh_env() as env:
        assert Encoder(KERNEL, env, 4).ntid == Int(4)
        sym = Encoder(KERNEL, env).ntid
        assert sym.is_symbol() and sym.symbol_type() == INT


@pytest.mark.parametrize(
    ("text", "per_thread"),
    [
        ("a[0] == n", False),
        ("\\forall int j; 0 <= j < n ==> a[j] == s", False),
        ("x @ 0 == 1", False),
        ("\\all(x > 0)", False),
        ("x == 1", True),
        ("tid < n", True),
        ("a[tid] == 0", True),
        ("x @ tid == 1", True),
        ("\\old(x) == 0", True),
        ("\\forall int j; 0 <= j < 4 ==> buf[j] == 0", True),
    ],
)
def test_thread_reading_of_clauses(text: str, per_thread: bool) -> None:
    with fresh_env() as env:
        enc = Encoder(KERNEL, env)
        term = parse_formula(text)
        assert enc.is_per_thread(term) is per_thread
        f = enc.formula(term, Mask())
        # A per-thread clause is ∀t. (0 <= t < N ∧ t ∈ m) → φ[t/tid]; a global one is φ itself.
        over_threads = f.is_forall() and f.quantifier_vars()[0].symbol_name().startswith("tid!")
        assert over_threads is per_thread
        if per_thread:
            (t,) = f.quantifier_vars()
            assert f.arg(0).is_implies() and f.arg(0).arg(0) == enc.active(Mask(), t)


def test_mask_membership_is_the_conjunction_of_its_literals() -> None:
    with fresh_env() as env:
        enc = Encoder(KERNEL, env)
        m = enc.mgr
        z1, z2 = enc.fresh_thread_pred(), enc.fresh_thread_pred()
        i = m.Symbol("i", INT)
        mask = Mask().conj(z1, True).conj(z2, False)
        assert enc.mask_at(Mask(), i) == m.TRUE()
        assert enc.mask_at(mask, i) == m.And(m.Function(z1, [i]), m.Not(m.Function(z2, [i])))
        assert Mask().is_all and not mask.is_all


def test_c_division_and_modulo_on_a_table_of_values() -> None:
    # C: truncation toward zero; % has the sign of the dividend; a == (a/b)*b + a%b.
    def c_div(a: int, b: int) -> int:
        q = abs(a) // abs(b)
        return q if (a >= 0) == (b > 0) else -q

    pairs = [(a, b) for a in range(-9, 10) for b in (-4, -3, -2, -1, 1, 2, 3, 5)]
    with fresh_env() as env:
        enc = Encoder(KERNEL, env)
        facts = []
        for a, b in pairs:
            term = parse_expr(f"({a}) / ({b}) * 1000 + ({a}) % ({b})")
            facts.append(Equals(enc.at(term, Int(0)), Int(c_div(a, b) * 1000 + (a - b * c_div(a, b)))))
        assert decide([And(facts)]) == [PROVED]
        wrong = parse_expr("(-7) / 2")
        assert decide([Equals(enc.at(wrong, Int(0)), Int(-4))]) == [REFUTED]


def test_entry_facts_scalar_parameters() -> None:
    src = """
        /*@ ensures n - tid == n @ 0;
            ensures u >= 1;
            ensures w >= 0;
            ensures v >= 0;
            ensures blockDim.x >= 1;
        */
        __global__ void k(int n, unsigned u, size_t w, int v) {
            n = n + tid;
            u = u + 1;
        }
        """
    # n is assigned, so local, but all its copies start equal; u is unsigned (>= 0 on entry);
    # w is size_t and never assigned (a shared constant >= 0); v is a plain int.
    got = [v.outcome for v in verdicts(src)]
    assert got == [PROVED, PROVED, PROVED, REFUTED, PROVED]


def test_entry_facts_are_about_parameters_only() -> None:
    with fresh_env() as env:
        enc = Encoder(KERNEL, env)
        facts = entry_facts(enc, KERNEL)
        names = {s.symbol_name() for f in facts for s in f.get_free_variables()}
    # N >= 1, and m's copies are equal on entry (m is the only assigned scalar parameter).
    assert names == {"ntid", "m"} | {n for n in names if n.startswith("m.init!")}
    assert len(facts) == 2


@pytest.mark.parametrize("name", ["abs", "div", "mod", "select", "store", "distinct", "ite", "let", "to_int"])
def test_c_names_that_are_smtlib_theory_symbols(name: str) -> None:
    src = f"""
        /*@ ensures {name} == 1;
            ensures a[0] == 1;
        */
        __global__ void k(int *a) {{
            int {name} = 1;
            a[0] = {name};
        }}
        """
    assert [v.outcome for v in verdicts(src)] == [PROVED, PROVED]


def test_c_names_that_are_smtlib_reserved_words_but_not_theory_symbols_work() -> None:
    src = """
        /*@ ensures match == 1 && push == 2 && BINARY == 3; */
        __global__ void k() { int match = 1; int push = 2; int BINARY = 3; }
        """
    assert [v.outcome for v in verdicts(src)] == [PROVED]


@pytest.mark.parametrize("threads", [8, 100_000])
def test_a_branch_predicate_over_many_threads_is_the_guarded_definition(threads: int) -> None:
    """Above MAX_EXPANSION threads `z` is defined by an equation with a fresh `outside`
    function for the non-threads: with `outside := z` it is the guarded definition, and it
    implies it; below, it is the guarded definition itself."""
    from pysmt.shortcuts import Implies, Symbol
    from pysmt.typing import BOOL

    with fresh_env() as env:
        enc = Encoder(KERNEL, env, threads)
        z = Symbol("z", FunctionType(BOOL, [INT]))
        cond = parse_expr("tid % 3 < 2")
        defined = enc.define_thread_pred(z, cond)
        outside = [s for s in defined.get_free_variables() if s.symbol_name().startswith("z.outside")]
        assert len(outside) == (1 if threads > 64 else 0)
        i = Symbol("i0", INT)
        guarded = enc.mgr.ForAll(
            [i], Implies(enc.in_range(i), enc.mgr.Iff(enc.mgr.Function(z, [i]), enc.cond_at(cond, i)))
        )
        formulas = [Implies(defined, guarded)]
        if outside:
            (j,) = defined.quantifier_vars()
            m = enc.mgr

            def shape(other: FNode) -> FNode:
                return m.ForAll(
                    [j], m.Iff(m.Function(z, [j]), m.Ite(enc.in_range(j), enc.cond_at(cond, j), other))
                )

            assert defined == shape(m.Function(outside[0], [j]))
            formulas.append(Implies(guarded, shape(m.Function(z, [j]))))  # outside := z
        assert decide(formulas) == [PROVED] * len(formulas)
