"""ACSL aggregates `\\sum`, `\\product`, `\\numof`, `\\max`, `\\min` (spec-language §5):
the grammar and its errors (`parser/bigops.py`), the interpreter (`interp/bigops.py`), the SMT
encoding (`smt/sums.py`: written out for constant ranges, prefix-sum and range functions with
axioms otherwise), and proofs of them (`prove`/`check`)."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from pipeline_kit import source
from pysmt.shortcuts import And, Equals, Int, Symbol, is_sat, is_valid
from pysmt.typing import INT, FunctionType

from hoaregpu.cli import main
from hoaregpu.driver import KernelResult, VerifyOptions, fresh_env, verify
from hoaregpu.errors import SpecError
from hoaregpu.frontend import parse_text
from hoaregpu.interp.run import run_kernel
from hoaregpu.lower import lower_file
from hoaregpu.smt import closing, sums
from hoaregpu.solvers import Outcome, SolverOptions
from hoaregpu.terms import AggKind, Aggregate, Conditional

PROVED, REFUTED = Outcome.PROVED, Outcome.REFUTED


def verify_src(tmp_path: Path, src: str, solver: str = "z3") -> KernelResult:
    path = tmp_path / "k.cu"
    path.write_text(source(src))
    result = verify([str(path)], VerifyOptions(solver=solver, solver_options=SolverOptions(timeout=20.0)))
    assert not result.errors, [e.render() for e in result.errors]
    (kernel,) = result.kernels
    return kernel


def outcomes(k: KernelResult) -> list[tuple[str, Outcome]]:
    return [(r.vc.origin.kind.value, r.result.outcome) for r in k.results]


def ensures_term(formula: str) -> object:
    text = f"//@ ensures {formula};\n__global__ void k(int *a, int n) {{ }}\n"
    (kernel,) = parse_text(text, "k.cu").kernels
    return kernel.ensures[0].formula


# -- the grammar -------------------------------------------------------------------------


def test_parses_every_kind_with_its_binder_and_range() -> None:
    for kind in AggKind:
        t = ensures_term(f"{kind.value}(0, n - 1, \\lambda int k; a[k] + 1) == 0")
        agg = t.left  # type: ignore[attr-defined]
        assert isinstance(agg, Aggregate) and agg.kind is kind and agg.name == "k"


def test_two_argument_max_and_min_are_the_larger_and_smaller_value() -> None:
    t = ensures_term("\\max(a[0], n) == 3")
    assert isinstance(t.left, Conditional)  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("formula", "message"),
    [
        ("\\sum(0, n) == 0", "takes a range and a '\\lambda'"),
        ("\\sum(0, n, \\lambda float k; a[k]) == 0", "'\\lambda float' is not supported"),
        ("\\sum(0, n, \\lambda int tid; a[tid]) == 0", "built-in name"),
        ("\\lambda int k; k", "'\\lambda' may only stand as the last argument"),
        ("\\sum(0 n) == 0", "',' between the bounds"),
        ("\\sum(0, n, \\lambda int k; a[k] == 0", "')'"),
    ],
)
def test_misuse_is_a_positioned_error(formula: str, message: str) -> None:
    with pytest.raises(SpecError) as info:
        ensures_term(formula)
    assert message in str(info.value)
    assert info.value.span is not None and info.value.span.line == 1


def test_aggregates_are_annotation_only() -> None:
    with pytest.raises(SpecError, match="1:36: error"):  # C: Clang's own error, at the backslash
        parse_text("__global__ void k(int *a) { a[0] = \\sum(0, 1, \\lambda int k; k); }\n", "k.cu")


def test_bound_variable_is_scoped_to_the_body() -> None:
    src = "//@ ensures \\sum(0, k, \\lambda int k; a[k]) == 0;\n__global__ void f(int *a) { }\n"
    with pytest.raises(SpecError, match="unknown variable 'k'"):
        lower_file(parse_text(src, "k.cu"))


# -- the interpreter ---------------------------------------------------------------------

KERNEL = """
    /*@ requires gridDim.x == 1; requires blockDim.x == 4;
        ensures s[0] == \\sum(0, 3, \\lambda int k; \\old(a[k]));
        ensures s[1] == \\product(1, 3, \\lambda int k; \\old(a[k]));
        ensures s[2] == \\numof(0, 3, \\lambda int k; \\old(a[k]) > 1);
        ensures s[3] == \\max(0, 3, \\lambda int k; \\old(a[k]));
        ensures s[4] == \\min(0, 3, \\lambda int k; \\old(a[k]));
        ensures \\sum(3, 2, \\lambda int k; a[k]) == 0 && \\product(3, 2, \\lambda int k; a[k]) == 1;
    */
    __global__ void k(int *a, int *s) {
        if (threadIdx.x == 0) {
            s[0] = a[0] + a[1] + a[2] + a[3];
            s[1] = a[1] * a[2] * a[3];
            s[2] = (a[0] > 1) + (a[1] > 1) + (a[2] > 1) + (a[3] > 1);
            s[3] = a[0]; s[4] = a[0];
            for (int i = 1; i < 4; i++) {
                if (a[i] > s[3]) s[3] = a[i];
                if (a[i] < s[4]) s[4] = a[i];
            }
        }
    }
"""


def test_interpreter_evaluates_every_kind_exactly() -> None:
    (kernel,) = lower_file(parse_text(source(KERNEL), "k.cu"))
    for a in ([3, -1, 4, 1], [0, 0, 0, 0], [-5, 7, 2, 9]):
        result = run_kernel(kernel, 4, {"a": a})
        assert result.ok, result.violations
    wrong = source(KERNEL).replace("s[0] = a[0] + a[1]", "s[0] = a[1]")
    (bad,) = lower_file(parse_text(wrong, "k.cu"))
    result = run_kernel(bad, 4, {"a": [3, -1, 4, 1]})
    assert not result.ok


def test_interpreter_rejects_max_of_an_empty_range_and_huge_ranges() -> None:
    for formula, message in (
        ("\\max(2, 1, \\lambda int k; a[k]) == 0", "empty range is undefined"),
        ("\\sum(0, 100000000, \\lambda int k; k) == 0", "more than the interpreter evaluates"),
    ):
        src = f"//@ ensures {formula};\n__global__ void k(int *a) {{ }}\n"
        (kernel,) = lower_file(parse_text(src, "k.cu"))
        result = run_kernel(kernel, 2, {"a": [1, 2]})
        assert not result.ok
        assert any(message in str(v) for v in result.violations), result.violations


# -- the SMT encoding ----------------------------------------------------------------------


def test_constant_ranges_are_written_out(tmp_path: Path) -> None:
    k = verify_src(tmp_path, KERNEL)
    assert all(o is PROVED for _, o in outcomes(k)), outcomes(k)


def test_a_wrong_constant_sum_is_refuted(tmp_path: Path) -> None:
    k = verify_src(tmp_path, KERNEL.replace("s[0] = a[0] + a[1]", "s[0] = a[1]"))
    assert ("postcondition", REFUTED) in outcomes(k)


SCAN = """
    /*@ requires gridDim.x == 1; requires blockDim.x == THREADS;
        ensures \\forall int j; 0 <= j < blockDim.x ==> a[j] == \\sum(0, j, \\lambda int k; \\old(a[k]));
    */
    __global__ void scan(int *a) {
        /*@ loop invariant 1 <= d && d == d @ 0;
            loop invariant \\forall int j; 0 <= j < blockDim.x ==>
                             a[j] == \\sum(\\max(0, j - d @ 0 + 1), j, \\lambda int k; \\old(a[k]));
        */
        for (int d = START; d < blockDim.x; d *= 2) {
            int v = 0;
            if (threadIdx.x >= d) v = a[threadIdx.x - d];
            __syncthreads();
            a[threadIdx.x] += v;
            __syncthreads();
        }
    }
"""


@pytest.mark.parametrize("encoding", ["prefix", "range"])
def test_symbolic_ranges_prove_the_scan_at_1024_threads(
    tmp_path: Path, encoding: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sums, "SUM_ENCODING", encoding)
    k = verify_src(tmp_path, SCAN.replace("THREADS", "1024").replace("START", "1"))
    assert k.verdict == "verified", outcomes(k)


def test_symbolic_ranges_refute_a_planted_bug(tmp_path: Path) -> None:
    k = verify_src(tmp_path, SCAN.replace("THREADS", "1024").replace("START", "2"))
    assert ("loop-invariant-entry", REFUTED) in outcomes(k)


def test_extensionality_proves_counts_for_any_thread_count(tmp_path: Path) -> None:
    src = """
        /*@ ensures \\numof(0, blockDim.x - 1, \\lambda int k; f[k] != 0)
                    == \\numof(0, blockDim.x - 1, \\lambda int k; \\old(a[k]) > 0); */
        __global__ void count(int *a, int *f) { f[threadIdx.x] = a[threadIdx.x] > OP; }
    """
    assert verify_src(tmp_path, src.replace("OP", "0")).verdict == "verified"
    assert verify_src(tmp_path, src.replace("OP", "-1")).verdict != "verified"


def test_prefix_axioms_hold_of_the_true_sum_and_decide_small_identities() -> None:
    """The axioms are satisfiable together with the true values (they are a definition),
    and the prefix encoding makes splitting a range linear arithmetic."""
    with fresh_env() as env:
        m = env.formula_manager
        a = Symbol("a", FunctionType(INT, [INT]))
        k = Symbol("k", INT)
        lo, mid, hi = Symbol("lo", INT), Symbol("mid", INT), Symbol("hi", INT)

        def total(x: object, y: object) -> object:
            return sums.marker(m, AggKind.SUM, x, y, k, m.Function(a, [k]))

        split = Equals(total(lo, hi), m.Plus(total(lo, mid), total(m.Plus(mid, Int(1)), hi)))
        claim = m.Implies(And(m.LE(lo, m.Plus(mid, Int(1))), m.LE(mid, hi)), split)
        formula = closing.close(env, m.TRUE(), claim, fixed=False).formula(env.formula_manager)
        assert is_valid(formula, solver_name="z3")
        # and a false identity is not provable
        wrong = Equals(total(lo, hi), total(lo, m.Plus(hi, Int(1))))
        formula = closing.close(env, m.TRUE(), wrong, fixed=False).formula(env.formula_manager)
        assert not is_valid(formula, solver_name="z3")
        # the values of the true sum satisfy the closed axioms (consistency on a small model)
        cells = {i: v for i, v in enumerate([4, -2, 7, 1])}
        facts = [Equals(m.Function(a, [Int(i)]), Int(v)) for i, v in cells.items()]
        for x, y in itertools.product(range(-1, 4), repeat=2):
            want = sum(cells[i] for i in range(x, y + 1) if i in cells) if y >= x else 0
            if x < 0 and y >= 0:
                continue
            claim = Equals(total(Int(x), Int(y)), Int(want))
            formula = closing.close(env, And(facts), claim, fixed=False).formula(env.formula_manager)
            assert is_sat(formula, solver_name="z3")


def test_linearity_and_change_of_variable_split_a_sum_of_pairs() -> None:
    """`\\sum(0, 2n-1, a[k]) == \\sum(0, n-1, a[k] + a[k+n])` for every n (the tree
    reduction's step) needs induction on the prefix functions alone; the rewrites of a sum of
    a `+` body (linearity) and of a body reading `k + c` (change of variable) make it linear.
    Their equations are theorems about finite sums (docs/aggregates.md)."""
    with fresh_env() as env:
        m = env.formula_manager
        a = Symbol("a", FunctionType(INT, [INT]))
        k, n = Symbol("k", INT), Symbol("n", INT)

        def total(x: object, y: object, body: object) -> object:
            return sums.marker(m, AggKind.SUM, x, y, k, body)

        cell = m.Function(a, [k])
        pairs = total(Int(0), m.Minus(n, Int(1)), m.Plus(cell, m.Function(a, [m.Plus(k, n)])))
        whole = total(Int(0), m.Minus(m.Times(Int(2), n), Int(1)), cell)
        formula = closing.close(env, m.LE(Int(0), n), Equals(whole, pairs), fixed=False).formula(
            env.formula_manager
        )
        assert is_valid(formula, solver_name="z3")


def test_extensionality_under_equal_bounds_needs_the_bounds_equal() -> None:
    """Two sums of bodies that agree on the range are equal when their bounds are equal terms
    only in the model (`2 * (n / 2) - 1` and `n - 1` for an even n)."""
    with fresh_env() as env:
        m = env.formula_manager
        a, b = Symbol("a", FunctionType(INT, [INT])), Symbol("b", FunctionType(INT, [INT]))
        k, n, x = Symbol("k", INT), Symbol("n", INT), Symbol("x", INT)
        same = m.ForAll([x], Equals(m.Function(a, [x]), m.Function(b, [x])))
        half = m.Minus(m.Times(Int(2), m.Div(n, Int(2))), Int(1))
        left = sums.marker(m, AggKind.SUM, Int(0), half, k, m.Function(a, [k]))
        right = sums.marker(m, AggKind.SUM, Int(0), m.Minus(n, Int(1)), k, m.Function(b, [k]))
        even = Equals(n, m.Times(Int(2), m.Div(n, Int(2))))
        formula = closing.close(env, And(same, even), Equals(left, right), fixed=False).formula(
            env.formula_manager
        )
        assert is_valid(formula, solver_name="z3")


def test_prove_and_check_cover_every_aggregate(tmp_path: Path) -> None:
    """All five aggregates and the empty sum and product, through `prove` and `check` (the
    checker's own translation: tests/proof/test_aggregate_smt.py)."""
    path = tmp_path / "k.cu"
    path.write_text(source(KERNEL))
    out = tmp_path / "k.proof"
    assert main(["prove", str(path), "-o", str(out), "--timeout", "60"]) == 0
    assert "\\product(1, 3, \\lambda int k; \\old(a[k]))" in out.read_text()
    assert main(["check", str(out), "--timeout", "60"]) == 0


def test_running_sums_answer_overlapping_ranges_exactly() -> None:
    import random

    from hoaregpu.interp.bigops import Prefix

    rng = random.Random(3)
    values = {k: rng.randint(-9, 9) for k in range(-20, 40)}
    prefix, charged = Prefix(), []
    for _ in range(300):
        low = rng.randint(-20, 39)
        high = rng.randint(low, 39)
        got = prefix.total(low, high, values.__getitem__, charged.append)
        assert got == sum(values[k] for k in range(low, high + 1)), (low, high)
    assert sum(charged) <= len(values) + 40  # each cell evaluated about once
