"""Access facts `\\written(a, i)`, `\\read(a, i)` (hoaregpu.access_facts): their grammar and
errors, their reading as the race logs, and that a wrong one never makes a kernel verify."""

from __future__ import annotations

from pathlib import Path

import pytest

from hoaregpu import access_facts, core
from hoaregpu.driver import VerifyOptions, load_kernels, verify
from hoaregpu.errors import SpecError
from hoaregpu.launch import Launch
from hoaregpu.pretty import show_term
from hoaregpu.races import race_kernel
from hoaregpu.solvers import Outcome, SolverOptions
from hoaregpu.terms import Access, AccessKind

SHIFTED = """\
/*@ requires gridDim.x == 1; requires blockDim.x == 4;
    requires n >= 0;
*/
__global__ void shifted(int *out, int n) {
    /*@ loop invariant i >= 0;
        INVARIANT
    */
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        out[i + 1] = i;
    }
}
"""
RIGHT = "loop invariant \\forall int k; \\written(out, k) ==> k >= 1 && (k - 1) % blockDim.x == threadIdx.x;"
OFF_BY_ONE = "loop invariant \\forall int k; \\written(out, k) ==> k % blockDim.x == threadIdx.x;"

SLIDING = """\
/*@ requires gridDim.x == 1; requires blockDim.x == 4;
    requires n >= 0;
*/
__global__ void sliding(int *out, int n) {
    /*@ loop invariant 0 <= i && i == i @ 0;
        loop invariant !\\written(out);
    */
    for (int i = 0; i < n; i++) {
        out[i + threadIdx.x] = threadIdx.x;
    }
}
"""

ASSERTS = """\
/*@ requires gridDim.x == 1; requires blockDim.x == 4; */
__global__ void own(int *out, int *in, int *res) {
    out[threadIdx.x] = 1;
    //@ assert \\forall int k; k != threadIdx.x ==> !\\written(out, k);
    //@ assert \\written(out) ==> \\written(out, threadIdx.x);
    //@ assert !\\read(out) && !\\read(in);
    __syncthreads();
    //@ assert !\\written(out);
    res[threadIdx.x] = out[(threadIdx.x + 1) % 4] + in[threadIdx.x];
    //@ assert \\forall int k; \\read(out, k) ==> k == (threadIdx.x + 1) % 4;
    //@ assert \\forall int k; \\read(in, k) ==> k == threadIdx.x;
}
"""


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def outcomes(path: str, check: bool = True, threads: int | None = None) -> list[tuple[str, int, Outcome]]:
    options = VerifyOptions(
        solver_options=SolverOptions(timeout=20.0), jobs=2, check_races=check, threads=threads
    )
    run = verify([path], options)
    assert not run.errors, [e.render() for e in run.errors]
    return [
        (r.vc.origin.kind.value, r.vc.origin.span.line, r.result.outcome)
        for k in run.kernels
        for r in k.results
    ]


def refuted(found: list[tuple[str, int, Outcome]]) -> set[tuple[str, int]]:
    return {(kind, line) for kind, line, o in found if o is Outcome.REFUTED}


# ---------------------------------------------------------------- grammar and placement


def test_the_terms_and_their_lowering(tmp_path: Path) -> None:
    (k,) = load_kernels(write(tmp_path, "a.cu", ASSERTS))
    facts = [a for f in access_facts.formulas(k) for a in access_facts.accesses(f.term)]
    assert {(a.kind, a.any_cell) for a in facts} == {
        (AccessKind.WRITTEN, False),
        (AccessKind.WRITTEN, True),
        (AccessKind.READ, True),
        (AccessKind.READ, False),
    }
    texts = [show_term(f.term) for f in access_facts.formulas(k)]
    assert "\\written(out) ==> \\written(out, tid)" in texts
    # the kernel's own VCs, runs and derivations do not see them
    plain = access_facts.without(k)
    assert not access_facts.has_facts(plain)
    asserts = [s for s in core.statements(plain.body) if isinstance(s, core.Assert)]
    assert asserts == []


@pytest.mark.parametrize(
    ("annotation", "message", "at"),
    [
        ("assume !\\read(out);", "access fact '\\read' in an 'assume'", "\\read"),
        ("assert \\old(\\written(out));", "access fact '\\written' in '\\old'", "\\written"),
        ("assert \\written(out, 0, 1);", "'out' has 1 dimension(s) but is used with 2 index(es)", "\\"),
        ("assert \\written(out[1]);", "the first argument of '\\written' must be the name of an array", "\\"),
        ("assert \\written(t, 0);", "'t' is a thread's own variable", "\\"),
        ("assert \\read(nope);", "unknown array 'nope' in '\\read'", "\\"),
        ("assert \\written;", "expected '(' after the access fact", ";"),
        # a fact is no number: not an index of another (it used to crash the encoder)
        (
            "assert \\written(out, \\written(out)) || 1;",
            "access fact '\\written' in an index of '\\written'",
            "\\written(out))",
        ),
        (
            "assert \\read(out, \\read(out)) || 1;",
            "access fact '\\read' in an index of '\\read'",
            "\\read(out))",
        ),
        (
            "assert \\forall int c; \\read(out, c + \\written(out, c)) ==> 1;",
            "access fact '\\written' in an index of '\\read'",
            "\\written",
        ),
    ],
)
def test_misuse_is_a_spec_error_with_a_position(
    tmp_path: Path, annotation: str, message: str, at: str
) -> None:
    body = f"    int t[4];\n    t[0] = 1;\n    //@ {annotation}\n    out[0] = 1;\n"
    with pytest.raises(SpecError) as exc:
        load_kernels(write(tmp_path, "bad.cu", f"__global__ void k(int *out) {{\n{body}}}\n"))
    assert message in exc.value.message
    assert (exc.value.span.line, exc.value.span.col) == (4, 9 + annotation.index(at))


def test_not_of_a_scalar_parameter(tmp_path: Path) -> None:
    # a scalar parameter is a value, not memory (as an assigned one, a thread's own copy, is)
    src = (
        "__global__ void k(int *out, int n) {\n    out[threadIdx.x] = n;\n    //@ assert !\\written(n);\n}\n"
    )
    with pytest.raises(SpecError, match=r"'n' is a scalar parameter: '\\written' speaks of memory") as exc:
        load_kernels(write(tmp_path, "scalar.cu", src))
    assert (exc.value.span.line, exc.value.span.col) == (3, 17)
    # a __device__ variable is memory, scalar or not
    dev = "__device__ int g;\n" + src.replace("int n)", "int m)").replace("= n;", "= m; g = 1;").replace(
        "(n)", "(g)"
    )
    assert load_kernels(write(tmp_path, "device_var.cu", dev))


def test_a_pointer_variable_with_no_cell(tmp_path: Path) -> None:
    src = """\
__global__ void k(int *a) {
    int *p = a + 1;
    p[threadIdx.x] = 1;
    //@ assert \\forall int c; \\written(p, c) ==> c == threadIdx.x;
    //@ assert \\written(p) ==> 1;
}
"""
    with pytest.raises(SpecError, match=r"pointer 'p' in '\\written\(\.\.\.\)'") as exc:
        load_kernels(write(tmp_path, "p.cu", src))
    assert (exc.value.span.line, exc.value.span.col) == (5, 16)
    assert exc.value.hint is not None and "'\\written(p, i)'" in exc.value.hint
    # with a cell it is p's cell: the first assert holds
    found = outcomes(write(tmp_path, "p_cell.cu", src.replace("    //@ assert \\written(p) ==> 1;\n", "")))
    assert found and all(o is Outcome.PROVED for _, _, o in found)


def test_not_in_requires(tmp_path: Path) -> None:
    src = "/*@ requires \\written(out, 0); */\n__global__ void k(int *out) { out[threadIdx.x] = 1; }\n"
    with pytest.raises(SpecError, match=r"access fact '\\written' in a 'requires'") as exc:
        load_kernels(write(tmp_path, "req.cu", src))
    assert (exc.value.span.line, exc.value.span.col) == (1, 14)


def test_not_in_a_device_functions_contract(tmp_path: Path) -> None:
    src = """\
/*@ ensures !\\written(a); */
__device__ int f(int *a) { return 1; }
__global__ void k(int *a) { a[threadIdx.x] = f(a); }
"""
    with pytest.raises(SpecError) as exc:
        load_kernels(write(tmp_path, "dev.cu", src))
    assert exc.value.span.line == 1


# ---------------------------------------------------------------- meaning


def test_read_as_the_logs_in_the_race_kernel(tmp_path: Path) -> None:
    (k,) = load_kernels(write(tmp_path, "s.cu", SHIFTED.replace("INVARIANT", RIGHT)))
    checked, _, _ = race_kernel(k, Launch.of_threads(4))
    (loop,) = [s for s in core.statements(checked.body) if isinstance(s, core.While)]
    text = " ".join(show_term(f.term) for f in loop.invariants)
    assert "hg.race.write.out >= 1 && hg.race.write.out.0 == k ==>" in text
    assert not any(isinstance(t, Access) for f in loop.invariants for t in [f.term])


def test_a_user_access_invariant_proves_a_race_inference_cannot(tmp_path: Path) -> None:
    found = outcomes(write(tmp_path, "right.cu", SHIFTED.replace("INVARIANT", RIGHT)))
    assert found and all(o is Outcome.PROVED for _, _, o in found)
    # its entry and preservation are VCs (proved in the race kernel)
    assert {("loop-invariant-entry", 6), ("loop-invariant-preserved", 6)} <= {(k, n) for k, n, _ in found}
    # without it, the inferred invariants do not suffice: the race VC fails
    assert refuted(outcomes(write(tmp_path, "none.cu", SHIFTED.replace("INVARIANT", "")))) == {
        ("data-race", 9)
    }


def test_a_wrong_access_invariant_is_refuted(tmp_path: Path) -> None:
    found = outcomes(write(tmp_path, "wrong.cu", SHIFTED.replace("INVARIANT", OFF_BY_ONE)))
    assert ("loop-invariant-preserved", 6) in refuted(found)


def test_a_wrong_access_invariant_that_hides_a_race_never_verifies(tmp_path: Path) -> None:
    found = outcomes(write(tmp_path, "sliding.cu", SLIDING))
    # assumed at the loop head it makes the race check pass, but it is proved first (H-WHILE)
    assert ("data-race", 9, Outcome.PROVED) in found
    assert refuted(found) == {("loop-invariant-preserved", 6)}


def test_also_proved_when_races_are_assumed_away(tmp_path: Path) -> None:
    found = outcomes(write(tmp_path, "sliding.cu", SLIDING), check=False)
    assert refuted(found) == {("loop-invariant-preserved", 6)}
    assert not any(kind == "data-race" for kind, _, _ in found)


# racy kernels whose facts are false: under --assume-race-free the race checks are not
# proved, so they must not be assumed either (they would prune the paths where another
# thread recorded its access, and these facts would verify)
UNPROVED_CHECKS = {
    "shared": """\
/*@ requires gridDim.x == 1; */ __global__ void k(int *out, int x) {
    __shared__ int s[32];
    s[threadIdx.x] = x;
    if (threadIdx.x == 0) { s[0] = s[0] + s[1]; }
    //@ assert threadIdx.x == 1 ==> !\\written(s);
}
""",
    "every_thread_writes": """\
/*@ requires gridDim.x == 1; */ __global__ void k(int *a) {
    a[0] = threadIdx.x;
    //@ assert !\\written(a);
}
""",
    "read_then_written": """\
/*@ requires gridDim.x == 1; */ __global__ void k(int *a) {
    int x = a[0];
    if (threadIdx.x == 0) { a[0] = x; }
    //@ assert threadIdx.x != 0 ==> !\\read(a);
}
""",
}


@pytest.mark.parametrize("threads", [2, 8, None])
@pytest.mark.parametrize("name", sorted(UNPROVED_CHECKS))
def test_unproved_race_checks_are_not_assumed(tmp_path: Path, name: str, threads: int | None) -> None:
    path = write(tmp_path, f"{name}.cu", UNPROVED_CHECKS[name])
    line = 1 + UNPROVED_CHECKS[name].splitlines().index(
        next(x for x in UNPROVED_CHECKS[name].splitlines() if "//@" in x)
    )
    found = outcomes(path, check=False, threads=threads)
    assert refuted(found) == {("assertion", line)}
    assert not any(kind == "data-race" for kind, _, _ in found)
    # the race kernel under --assume-race-free has the logs but no race check
    (k,) = load_kernels(path)
    checked, _, _ = race_kernel(k, Launch.of_threads(threads or 4), check_races=False)
    asserts = [s for s in core.statements(checked.body) if isinstance(s, core.Assert)]
    assert asserts and all(s.check is not core.CheckKind.DATA_RACE for s in asserts)
    assert any(
        isinstance(s, core.Assign) and s.target.startswith("hg.race.") for s in core.statements(checked.body)
    )
    # with race checking on, a check is proved before it is assumed: the race is found
    assert any(kind == "data-race" for kind, _ in refuted(outcomes(path, threads=threads)))


def test_asserts_about_this_interval(tmp_path: Path) -> None:
    found = outcomes(write(tmp_path, "asserts.cu", ASSERTS))
    assert found and all(o is Outcome.PROVED for _, _, o in found)
    assert sum(1 for kind, _, _ in found if kind == "assertion") == 6


@pytest.mark.parametrize(
    "fact",
    [
        "assert !\\written(out, threadIdx.x);",  # this thread wrote it
        "assert \\written(out, threadIdx.x);",  # the log may not have recorded it
        "assert \\forall int k; \\written(out, k) ==> k == 0;",
    ],
)
def test_wrong_asserts_are_refuted(tmp_path: Path, fact: str) -> None:
    body = f"    out[threadIdx.x] = 1;\n    //@ {fact}\n"
    src = f"/*@ requires blockDim.x == 4; */\n__global__ void k(int *out) {{\n{body}}}\n"
    found = outcomes(write(tmp_path, "w.cu", src))
    assert refuted(found) == {("assertion", 4)}


def test_a_barrier_ends_the_interval(tmp_path: Path) -> None:
    src = """\
/*@ requires blockDim.x == 4; */
__global__ void k(int *out) {
    out[threadIdx.x] = 1;
    __syncthreads();
    //@ assert \\written(out) ==> \\written(out, 0);
}
"""
    assert all(o is Outcome.PROVED for _, _, o in outcomes(write(tmp_path, "b.cu", src)))
    found = outcomes(write(tmp_path, "nb.cu", src.replace("    __syncthreads();\n", "")))
    assert refuted(found) == {("assertion", 4)}


# ---------------------------------------------------------------- GPUVerify's dialect


def test_gpuverify_access_intrinsics_are_translated(tmp_path: Path) -> None:
    spec = Path(__file__).resolve().parents[1] / "specs" / "races" / "race_free_gpuverify_write_implies.cu"
    (k,) = load_kernels(str(spec))
    (loop,) = [s for s in core.statements(k.body) if isinstance(s, core.While)]
    texts = [show_term(f.term) for f in loop.invariants]
    assert texts[1].startswith("\\forall int __cell; \\written(out, __cell) ==> ")
    assert "__cell * 4 / 4 >= 1" in texts[1]
    assert texts[2] == "!\\read(out)"
    assert all(o is Outcome.PROVED for _, _, o in outcomes(str(spec)))
    wrong = spec.read_text().replace("- 1) % blockDim.x", ") % blockDim.x")
    assert ("loop-invariant-preserved", 8) in refuted(outcomes(write(tmp_path, "gv_wrong.cu", wrong)))


def test_shared_arrays_of_two_dimensions_in_several_blocks_and_ensures(tmp_path: Path) -> None:
    # a __shared__ array's cells carry the block (as the logs do): the facts name its own indices
    src = """\
/*@ requires blockDim.x == 4;
    requires gridDim.x == 2;
    ensures \\forall int c; \\written(out, c) ==> c == blockIdx.x * 4 + threadIdx.x;
*/
__global__ void k(int *out) {
    __shared__ int s[4][2];
    s[threadIdx.x][1] = 1;
    //@ assert \\forall int i, j; \\written(s, i, j) ==> i == threadIdx.x && j == 1;
    __syncthreads();
    out[blockIdx.x * 4 + threadIdx.x] = s[(threadIdx.x + 1) % 4][1];
    //@ assert \\forall int i, j; \\read(s, i, j) ==> j == 1;
}
"""
    found = outcomes(write(tmp_path, "s2.cu", src))
    assert ("postcondition", 3, Outcome.PROVED) in found
    assert found and all(o is Outcome.PROVED for _, _, o in found)
    wrong = src.replace("i == threadIdx.x && j == 1;", "j == 0;").replace("+ threadIdx.x;", "+ 1;")
    found = outcomes(write(tmp_path, "s2_wrong.cu", wrong))
    assert refuted(found) == {("postcondition", 3), ("assertion", 8)}
