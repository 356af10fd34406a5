"""GPUVerify's annotation dialect (`hoaregpu/frontend/gpuverify.py`, docs/gpuverify-dialect.md):
each intrinsic's translation, verdicts on true and false annotations, and the policy for
what cannot be translated (dropped with a warning in a hypothesis, unsupported in an
obligation)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pipeline_kit import PROVED, REFUTED, lower, source, verdicts

from hoaregpu.errors import SpecError, UnsupportedError
from hoaregpu.frontend import parse_text
from hoaregpu.pretty import show_kernel, show_term


def core_text(src: str) -> str:
    return show_kernel(lower(src))


def outcomes(src: str) -> list[tuple[str, object]]:
    return [(v.kind, v.outcome) for v in verdicts(src)]


def warnings_of(src: str) -> list[str]:
    (k,) = parse_text(source(src), "k.cu").kernels
    return [w.render() for w in k.warnings]


ONE_BLOCK = "gridDim.x == 1 && gridDim.y == 1 && gridDim.z == 1 && blockDim.y == 1 && blockDim.z == 1"

# ---------------------------------------------------------------- translation


def test_contract_calls_become_the_kernels_contract() -> None:
    k = lower(
        """
        /*@ requires n > 1; */
        __global__ void k(int *a, int n) {
            __requires(n < 10);
            __global_requires(n != 5);
            __ensures(a[threadIdx.x] == \\
                      n);
            a[threadIdx.x] = n;
        }
        """
    )
    # a kernel's requires and ensures are read at every thread: `__global_` changes nothing
    assert [show_term(f.term) for f in k.requires] == ["n > 1", "n < 10", "n != 5"]
    assert [show_term(f.term) for f in k.ensures] == ["a[tid] == \\old(n)"]  # n at entry
    assert k.requires[1].span.line == 3 and k.ensures[0].span.line == 5


def test_invariants_at_the_loop_head_of_while_and_for() -> None:
    text = core_text(
        """
        __global__ void k(int *a) {
            int d = 1;
            while (__invariant(d == 1 | d == 2 | d == 4), __invariant(d > 0), d < 4) { d = d * 2; }
            for (int i = 0; __invariant(0 <= i & i <= 3), __assert(i >= 0), i < 3; i++) { }
        }
        """
    )
    assert "invariant d == 1 || d == 2 || d == 4\n" in text
    assert "invariant d > 0\n" in text
    assert "invariant 0 <= i && i <= 3\n" in text
    assert "invariant i >= 0\n" in text  # an __assert at the loop head is an invariant (GPUVerify)


def test_statements_and_formula_intrinsics() -> None:
    text = core_text(
        """
        __global__ void k(int *a, bool f) {
            __requires_fresh_array(a);
            int x = threadIdx.x;
            __assume(__implies(__enabled(), x >= 0));
            __assert(__implies(f, x >= 0));
            __invariant(x >= 0);
            __assert(__uniform_bool(x));
            __assert(__distinct_int(x));
            __assert(__all(x >= 0));
            __assert(__exclusive(x < 0));
            __assert(__implies(threadIdx.x == 4, __other_int(threadIdx.x) != 4));
        }
        """
    )
    assert "assume 1 ==> x >= 0;" in text  # __enabled() at the thread reading it: active
    assert "assert f ==> x >= 0;" in text
    assert "assert x >= 0;" in text  # an __invariant elsewhere than at a loop head asserts
    other = "\\forall int __other_tid; 0 <= __other_tid && __other_tid < ntid ==> __other_tid != tid ==> "
    assert other + "x != 0 == (x != 0) @ __other_tid)" in text  # bool conversion as in C
    assert other + "x != x @ __other_tid)" in text
    assert other + "(x >= 0 && (x >= 0) @ __other_tid) != 0)" in text  # __all returns an int
    assert other + "!(x < 0 && (x < 0) @ __other_tid))" in text
    # an obligation about the other thread is about every thread only in one 1-D block
    assert text.count(f"assert {ONE_BLOCK} && (") == 5
    assert other + "tid == 4 ==> tid @ __other_tid != 4" in text


def test_other_thread_name_avoids_the_kernels_names() -> None:
    text = core_text(
        """
        __global__ void k(int *a) {
            int __other_tid = threadIdx.x;
            __assert(__distinct_int(__other_tid));
        }
        """
    )
    assert "\\forall int __other_tid1; " in text
    assert "__other_tid != __other_tid @ __other_tid1" in text


def test_old_and_return_values() -> None:
    text = core_text(
        """
        __device__ int inc(int v) {
            __requires(v >= 0);
            __ensures(__return_val_int() == v + 1);
            return v + 1;
        }
        __global__ void k(int *a) {
            __ensures(a[threadIdx.x] == __old_int(a[threadIdx.x]) + 1);
            a[threadIdx.x] = inc(a[threadIdx.x]);
        }
        """
    )
    assert "ensures a[tid] == \\old(a[tid]) + 1" in text
    assert "assert v >= 0;" in text  # the callee's __requires: checked at the call
    # the callee's __ensures: checked after its return
    assert text.index("inc.result.1 := v + 1") < text.index("assert inc.result.1 == inc.v.2 + 1")


def test_axiom_is_a_precondition_of_every_kernel() -> None:
    spec = parse_text(
        source(
            """
            __axiom(blockDim.x == 8);
            __global__ void k1(int *a) { a[threadIdx.x] = 0; }
            __global__ void k2(int *a) { a[threadIdx.x] = 1; }
            """
        ),
        "k.cu",
    )
    assert [[show_term(c.formula) for c in k.requires] for k in spec.kernels] == [["ntid == 8"]] * 2


def test_a_function_named_like_an_axiom_that_is_not_one_is_an_input_error() -> None:
    src = "__device__ bool __axiom_12(void) { int x = 1; return x; }\n__global__ void k(int *a) { }\n"
    with pytest.raises(SpecError, match="not an axiom made by"):
        parse_text(src, "k.cu")


def test_unsigned_conditions_premise_of_hypotheses_conjunct_of_obligations() -> None:
    text = core_text(
        """
        __global__ void k(int *a, unsigned n) {
            __requires(n - 1 < blockDim.x);
            unsigned u = threadIdx.x;
            __assert(u - 1 < blockDim.x);
        }
        """
    )
    assert "requires n - 1 >= 0 ==> n - 1 < ntid" in text
    assert "assert u - 1 >= 0 && u - 1 < ntid" in text


# ---------------------------------------------------------------- verdicts


def test_true_ensures_verified_false_refuted() -> None:
    src = """
        __global__ void k(int *a, int n) {
            __requires(n >= 0);
            __ensures(a[threadIdx.x] == n + 1);
            int s = 0;
            for (int i = 0; __invariant(0 <= i & i <= n), __invariant(s == i), i < n; i++) { s++; }
            a[threadIdx.x] = s + 1;
        }
        """
    assert all(o is PROVED for _, o in outcomes(src))
    assert ("postcondition", REFUTED) in outcomes(src.replace("n + 1);", "n + 2);"))


def test_wrong_invariant_fails_entry_or_preservation() -> None:
    src = """
        __global__ void k(int *a, int n) {
            __requires(n >= 0);
            int s = 0;
            for (int i = 0; __invariant(0 <= i), __invariant(s == i), i < n; i++) { s++; }
            a[threadIdx.x] = s;
        }
        """
    assert all(o is PROVED for _, o in outcomes(src))
    assert ("loop-invariant-entry", REFUTED) in outcomes(src.replace("s == i", "s == i + 1"))
    assert ("loop-invariant-preserved", REFUTED) in outcomes(src.replace("s == i", "s <= 1"))


def test_two_thread_intrinsics_are_checked_over_every_pair() -> None:
    src = """
        __global__ void k(int *a) {
            __requires(blockDim.y == 1 & blockDim.z == 1 & gridDim.x == 1 & gridDim.y == 1 & gridDim.z == 1);
            int x = threadIdx.x;
            __assert(__distinct_int(x));
            __assert(__implies(threadIdx.x == 1, __other_int(x) != 1));
        }
        """
    assert all(o is PROVED for _, o in outcomes(src))
    assert ("assertion", REFUTED) in outcomes(src.replace("threadIdx.x;", "threadIdx.x / 2;"))
    assert ("assertion", REFUTED) in outcomes(src.replace("__distinct_int", "__uniform_int"))


def test_other_thread_obligations_need_one_1d_block_hypotheses_do_not() -> None:
    # with two blocks (or a 2-D block), thread 0 of another block has the same threadIdx.x:
    # GPUVerify's other thread ranges over the grid, ours over threadIdx.x of one block
    src = """
        __global__ void k(int *a) {
            __requires(__distinct_int(a[threadIdx.x]));
            int x = threadIdx.x;
            __assert(__distinct_int(x));
        }
        """
    assert outcomes(src) == [("assertion", REFUTED)]
    one_block = (
        "__requires(blockDim.y == 1 & blockDim.z == 1 & gridDim.x == 1 & gridDim.y == 1 & gridDim.z == 1);"
    )
    assert outcomes(src.replace("int x", one_block + "\n            int x")) == [("assertion", PROVED)]
    assert "requires \\forall int __other_tid" in core_text(src)  # a hypothesis: no condition


def test_uniform_bool_of_an_int_hypothesis_compares_truth_values() -> None:
    # values 1 and 2 are both true: `__uniform_bool` says nothing more, as in C
    src = """
        __global__ void k(int *v) {
            __requires(__uniform_bool(v[threadIdx.x]));
            __requires(v[0] != 0);
            __ensures(v[threadIdx.x] == v[0]);
        }
        """
    assert ("postcondition", REFUTED) in outcomes(src)
    assert all(o is PROVED for _, o in outcomes(src.replace("== v[0]", "!= 0")))


def test_unsigned_wrap_inside_an_assertion_is_not_read_mathematically() -> None:
    # in C, at thread 0, u - 1 wraps to 4294967295, which is not < blockDim.x
    src = """
        __global__ void k(int *a) {
            unsigned u = threadIdx.x;
            __assert(u - 1 < blockDim.x);
        }
        """
    assert ("assertion", REFUTED) in outcomes(src)
    assert all(o is PROVED for _, o in outcomes(src.replace("u - 1 <", "u <")))
    # where the value does not decide the formula, C's wrap does not matter: guarded checks
    guarded = src.replace("__assert(u - 1 < blockDim.x);", "__assert(__implies(u > 0, u - 1 < blockDim.x));")
    assert "assert u >= 0 && (u > 0 ==> u - 1 >= 0) && (u > 0 ==> u - 1 < ntid)" in core_text(guarded)
    assert all(o is PROVED for _, o in outcomes(guarded))
    ternary = src.replace("__assert(u - 1 < blockDim.x);", "__assert(u == 0 ? true : u - 1 < blockDim.x);")
    assert all(o is PROVED for _, o in outcomes(ternary))


def test_device_function_contract_checked_at_each_call() -> None:
    src = """
        __device__ int half(int v) {
            __requires(v % 2 == 0);
            __ensures(__return_val_int() * 2 == v);
            return v / 2;
        }
        __global__ void k(int *a) {
            a[threadIdx.x] = half(2 * threadIdx.x);
        }
        """
    assert all(o is PROVED for _, o in outcomes(src))
    assert ("assertion", REFUTED) in outcomes(src.replace("half(2 * threadIdx.x)", "half(threadIdx.x)"))
    assert ("assertion", REFUTED) in outcomes(src.replace("v / 2;", "v / 2 + 1;"))


# ---------------------------------------------------------------- what is not translated


RACY = """
    __global__ void k(int *a) {
        __requires(__write_implies(a, __write_offset_bytes(a) / sizeof(int) == threadIdx.x));
        __requires(blockDim.x == 4);
        int i = 0;
        while (__invariant(__no_read(a)), __invariant(__uniform_bool(__enabled())),
               __invariant(i <= 2), i < 2) {
            i++;
        }
        __assert(i == 2);
    }
    """


def test_race_intrinsics_in_hypotheses_are_dropped_with_a_warning() -> None:
    # (in a loop invariant they are access facts, proved: `__no_read(a)` is translated)
    ws = warnings_of(RACY)
    assert len(ws) == 2
    assert "k.cu:2:5: warning: '__requires' dropped: '__write_implies'" in ws[0]
    assert "[gpuverify-dialect]" in ws[0]
    assert "'__enabled()' of the other thread" in ws[1]
    k = lower(RACY)
    assert [show_term(f.term) for f in k.requires] == ["ntid == 4"]
    assert all(o is PROVED for _, o in outcomes(RACY))
    # the kernel is still checked: a false assertion is refuted
    assert ("assertion", REFUTED) in outcomes(RACY.replace("i == 2", "i == 3"))


@pytest.mark.parametrize(
    "annotation, construct",
    [
        ("__assert(__read_offset_bytes(a) == 0);", "'__read_offset_bytes' outside '__read_implies'"),
        ("__assert(__write_implies(a, __read_offset_bytes(a) == 0));", "'__read_offset_bytes' outside"),
        ("__assert(__write(a + 1));", "'__write' of this pointer"),
        ("__assert(__ptr_offset_bytes(a) == 0);", "'__ptr_offset_bytes'"),
        ("__assert(__uniform_bool(__enabled()));", "'__enabled()' of the other thread"),
        ("__global_assert(__enabled());", "'__enabled()' of a thread in a '__global_*' clause"),
        ("__assert(__old_int(a[0]) == 0);", "'__old_int' outside a kernel's '__ensures'"),
        ("__assert(__other_int(__other_int(threadIdx.x)) == 0);", "'the other thread' inside"),
    ],
)
def test_untranslatable_obligations_are_unsupported(annotation: str, construct: str) -> None:
    src = f"__global__ void k(int *a) {{\n    {annotation}\n    a[0] = 1;\n}}\n"
    with pytest.raises(UnsupportedError) as exc:
        parse_text(src, "k.cu")
    assert construct in exc.value.construct
    assert exc.value.span.line == 2


@pytest.mark.parametrize(
    "body, message",
    [
        ("a[0] = 1;\n    __requires(a[0] == 1);", "'__requires' may only stand at the start"),
        ("if (a[0] > 0) { __ensures(a[0] > 0); }", "'__ensures' may only stand at the start"),
        ("__assert(__return_val_int() == 0);", "names the value a device function returns"),
        ("a[0] = __implies(a[1] > 0, a[2] > 0);", "GPUVerify intrinsic '__implies' in program code"),
        ("if (__enabled()) { a[0] = 1; }", "GPUVerify intrinsic '__enabled' in program code"),
        ("__implies(true, true);", "'__implies(...)' as a statement"),
        ("__assert(foo(a[0]));", "call to 'foo' inside a GPUVerify annotation"),
    ],
)
def test_misplaced_intrinsics_are_input_errors(body: str, message: str) -> None:
    src = f"__device__ int foo(int x) {{ return x; }}\n__global__ void k(int *a) {{\n    {body}\n}}\n"
    with pytest.raises(SpecError) as exc:
        parse_text(src, "k.cu")
    assert message in exc.value.message
    assert exc.value.span.line == 3 or exc.value.span.line == 4


def test_comma_without_invariants_is_still_unsupported() -> None:
    src = "__global__ void k(int *a) {\n    int i = 0;\n    while (i, i < 3) { }\n}\n"
    with pytest.raises(UnsupportedError, match="operator ','"):
        parse_text(src, "k.cu")


# ---------------------------------------------------------------- the report


def test_warnings_in_text_and_json_reports(tmp_path: object, capsys: pytest.CaptureFixture[str]) -> None:
    from pathlib import Path

    from hoaregpu.cli import main

    path = Path(str(tmp_path)) / "racy.cu"
    path.write_text(source(RACY))
    assert main(["verify", str(path), "--no-cache", "--no-replay"]) == 0
    out = capsys.readouterr().out
    assert "racy.cu:2:5: warning: '__requires' dropped: '__write_implies'" in out
    assert "verified" in out
    assert main(["verify", str(path), "--no-cache", "--no-replay", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    (kernel,) = doc["kernels"]
    assert [w["line"] for w in kernel["warnings"]] == [2, 5]
    assert all(w["tag"] == "gpuverify-dialect" for w in kernel["warnings"])


def test_parameters_in_ensures_mean_their_values_at_entry() -> None:
    # C evaluates `__ensures(... n ...)` where it stands, at entry; so does GPUVerify
    src = """
        __device__ int f(int x) {
            __ensures(__return_val_int() == x + 1);
            x = x + 1;
            return x;
        }
        __global__ void k(int *a, int n) {
            __ensures(a[threadIdx.x] == n + 1);
            n = n + 1;
            a[threadIdx.x] = f(n) - 1;
        }
        """
    text = core_text(src)
    assert "ensures a[tid] == \\old(n) + 1" in text
    assert "assert f.result.1 == f.x.2 + 1" in text  # f.x.2: the argument, x's value at entry
    assert all(o is PROVED for _, o in outcomes(src))
    assert ("postcondition", REFUTED) in outcomes(src.replace("f(n) - 1", "f(n)"))
    assert ("assertion", REFUTED) in outcomes(src.replace("x + 1);", "x);"))


# ---------------------------------------------------------------- function-wide, candidates, barriers


def test_function_wide_invariant_is_an_invariant_of_every_loop() -> None:
    src = """
        __global__ void k(int *a) {
            a[threadIdx.x] = 1;
            for (int i = 0; i < 4; i++) { a[threadIdx.x] = 1; }
            int j = 0;
            while (__invariant(j >= 0), j < 4) { j++; }
            __function_wide_invariant(a[threadIdx.x] == 1);
        }
        """
    text = core_text(src)
    assert text.count("invariant a[tid] == 1\n") == 2
    assert "invariant j >= 0\n" in text
    assert all(o is PROVED for _, o in outcomes(src))


def test_function_wide_invariant_that_breaks_is_refuted() -> None:
    src = """
        __global__ void k(int *a) {
            a[threadIdx.x] = 1;
            for (int i = 0; i < 4; i++) { a[threadIdx.x] = 2; }
            __function_wide_invariant(a[threadIdx.x] == 1);
        }
        """
    assert ("loop-invariant-preserved", REFUTED) in outcomes(src)


def test_function_wide_invariant_must_stand_at_the_end() -> None:
    with pytest.raises(SpecError, match="at the end of a kernel or device function body"):
        lower(
            """
            __global__ void k(int *a, int n) {
                __function_wide_invariant(n > 0);
                for (int i = 0; i < 4; i++) { }
            }
            """
        )


def test_candidates_are_dropped_with_a_warning() -> None:
    src = """
        __global__ void k(int *a) {
            int d = 1;
            while (__candidate_invariant(d == 3), __invariant(d > 0), d < 4) { d = d * 2; }
            __function_wide_candidate_invariant(d == 7);
        }
        """
    text = core_text(src)
    assert "invariant d > 0\n" in text and "d == 3" not in text and "d == 7" not in text
    ws = warnings_of(src)
    assert len(ws) == 2 and all("a candidate" in w for w in ws)
    assert all(o is PROVED for _, o in outcomes(src))  # a false candidate costs nothing


def test_barrier_invariant_is_proved_where_it_stands() -> None:
    good = """
        __global__ void k(int *a) {
            __shared__ int s[64];
            s[threadIdx.x] = threadIdx.x;
            __barrier_invariant_2(s[threadIdx.x] == threadIdx.x, threadIdx.x, 0);
            __syncthreads();
        }
        """
    assert outcomes(good) == [("assertion", PROVED)]
    bad = good.replace("== threadIdx.x, threadIdx.x", "== 0, threadIdx.x")
    assert outcomes(bad) == [("assertion", REFUTED)]


def test_binary_barrier_invariant_ranges_over_the_group_only() -> None:
    # a barrier orders one group: its pairs of threads are in one group, so the other thread
    # ranges over the block, and the launch may have several blocks (no one-block conjunct)
    src = """
        __global__ void k(int *a) {
            __shared__ int s[64];
            s[threadIdx.x] = threadIdx.x;
            __barrier_invariant_binary_1(s[threadIdx.x] != s[__other_int(threadIdx.x)],
                                         threadIdx.x, __other_int(threadIdx.x));
            __syncthreads();
        }
        """
    text = core_text(src)
    assert "gridDim.x == 1" not in text and "blockDim.y == 1" in text


def test_same_group_guard_drops_the_one_grid_conjunct_but_keeps_the_pair() -> None:
    src = """
        __global__ void k(int *a) {
            __requires(blockDim.y == 1 & blockDim.z == 1);
            a[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x;
            __assert(__implies(__same_group, threadIdx.x != __other_int(threadIdx.x)));
        }
        """
    text = core_text(src)
    assert "gridDim.x == 1" not in text and "@" in text
    assert outcomes(src) == [("assertion", PROVED)]


def test_ite_and_permissions() -> None:
    src = """
        __global__ void k(int *a, int c) {
            __read_permission(int, a[threadIdx.x]);
            __write_permission(int, a[threadIdx.x]);
            a[threadIdx.x] = c > 0 ? 1 : 2;
            __assert(a[threadIdx.x] == __ite(c > 0, 1, 2));
        }
        """
    assert outcomes(src) == [("assertion", PROVED)]
    assert outcomes(src.replace("__ite(c > 0, 1, 2)", "__ite(c > 0, 2, 1)")) == [("assertion", REFUTED)]


GLOBAL_INVARIANT_GRID = """
    __global__ void k(int *A) {
      __requires(gridDim.x == 2);
      __requires(blockDim.x == 4);
      int s = 0;
      for (int i = 0; __global_invariant(s == i * blockIdx.x), __global_invariant(i <= 8), i < 8; i++) {
        s += blockIdx.x;
      }
      __assert(s == 8 * blockIdx.x);
      A[blockIdx.x * 4 + threadIdx.x] = s;
    }
    """


def test_a_global_loop_invariant_is_read_per_thread_also_with_several_blocks(tmp_path: Path) -> None:
    # it was a quantifier over the block's threads, an input error with two blocks
    from hoaregpu.driver import VerifyOptions, verify

    def run(src: str) -> set[tuple[str, int, str]]:
        path = tmp_path / "k.cu"
        path.write_text(source(src))
        result = verify([str(path)], VerifyOptions(jobs=2, cache=False))
        assert not result.errors, [e.render() for e in result.errors]
        (kernel,) = result.kernels
        return {
            (r.vc.origin.kind.value, r.vc.origin.span.line, r.result.outcome.value) for r in kernel.results
        }

    assert {o for _, _, o in run(GLOBAL_INVARIANT_GRID)} == {"proved"}
    bug = GLOBAL_INVARIANT_GRID.replace("s == i * blockIdx.x)", "s == i * blockIdx.x + 1)")
    assert ("loop-invariant-entry", 5, "refuted") in run(bug)
