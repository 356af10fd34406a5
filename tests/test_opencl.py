"""OpenCL C kernels (`hoaregpu/frontend/opencl.py`, the prelude `include/hoaregpu_opencl.h`):
the mapping onto the CUDA model, verdicts on true and planted-bug kernels, what is rejected
and where, and the OpenCL launch flags (`--local_size`, `--num_groups`, `--global_size`)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from hoaregpu import core, syntax
from hoaregpu.cli import main
from hoaregpu.driver import VerifyOptions, verify
from hoaregpu.errors import ConfigError, SpecError, UnsupportedError
from hoaregpu.frontend import ClangOptions, parse_text
from hoaregpu.launch import Launch, opencl_launch
from hoaregpu.lower import lower_file
from hoaregpu.pretty import show_kernel
from hoaregpu.solvers import SolverOptions


def src(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


def lowered(text: str, path: str = "k.cl", options: ClangOptions | None = None) -> core.Kernel:
    (k,) = lower_file(parse_text(src(text), path, options))
    return k


def verdict(tmp_path: Path, text: str, launch: Launch | None = None) -> tuple[str, list[str]]:
    f = tmp_path / "k.cl"
    f.write_text(src(text))
    run = verify([str(f)], VerifyOptions(solver_options=SolverOptions(timeout=60.0), threads=launch))
    assert not run.errors, [e.render() for e in run.errors]
    (k,) = run.kernels
    refuted = [
        f"{r.vc.origin.kind.value}:{r.vc.origin.span.line}"
        for r in k.results
        if r.result.outcome.name == "REFUTED"
    ]
    return k.verdict, refuted


# ---------------------------------------------------------------- the mapping


def test_work_item_functions_are_the_built_in_coordinates() -> None:
    k = lowered(
        """
        __kernel void k(__global int *a) {
            a[get_global_id(0)] = get_local_id(1) + get_group_id(2) + get_local_size(0) + get_num_groups(1);
            a[0] = get_global_size(2);
        }
        """
    )
    text = show_kernel(k)
    assert "a[blockIdx.x * ntid + tid]" in text
    assert "threadIdx.y + blockIdx.z + ntid + gridDim.y" in text
    assert "gridDim.z * blockDim.z" in text


def test_kernel_qualifier_spellings_and_helpers_without_qualifier() -> None:
    k = lowered(
        """
        int twice(int x) { return 2 * x; }
        kernel void k(global int *a) { a[get_local_id(0)] = twice(3); }
        """
    )
    assert k.name == "k" and list(k.params) == ["a"]
    assert "twice.result.1 := 2 * x" in show_kernel(k)  # the helper inlined


def test_local_variables_and_local_pointer_parameters_are_shared_per_work_group() -> None:
    spec = parse_text(
        src(
            """
            __kernel void k(__global int *g, __local int *scratch, __constant int *c) {
                __local int tile[4];
                int mine = 0;
                tile[get_local_id(0)] = c[0];
                scratch[get_local_id(0)] = tile[0] + mine;
                g[get_local_id(0)] = scratch[0];
            }
            """
        ),
        "k.cl",
    )
    (k,) = spec.kernels
    assert [p.name for p in k.params] == ["g", "c"]  # the __local one is no parameter
    decls = [s for s in k.body.stmts if isinstance(s, syntax.Decl)]
    shared = {d.declarators[0].name: d.shared for d in decls}
    assert shared == {"scratch": True, "tile": True, "mine": False}


def test_barrier_records_its_fences() -> None:
    spec = parse_text(
        src(
            """
            __kernel void k(__global int *a) {
                barrier(CLK_LOCAL_MEM_FENCE);
                barrier(CLK_GLOBAL_MEM_FENCE);
                barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
            }
            """
        ),
        "k.cl",
    )
    (k,) = spec.kernels
    fences = [s.fences for s in k.body.stmts if isinstance(s, syntax.SyncStmt)]
    assert fences == [frozenset({"local"}), frozenset({"global"}), frozenset({"local", "global"})]
    syncs = [s for s in core.statements(lower_file(spec)[0].body) if isinstance(s, core.Sync)]
    assert [s.fences for s in syncs] == fences


def test_cuda_syncthreads_orders_all_memory() -> None:
    spec = parse_text("__global__ void k(int *a) { __syncthreads(); }\n", "k.cu")
    (sync,) = [s for s in spec.kernels[0].body.stmts if isinstance(s, syntax.SyncStmt)]
    assert sync.fences == core.ALL_FENCES


def test_file_scope_constant_table_is_known_on_entry(tmp_path: Path) -> None:
    table = """
        __constant int w[3] = {1, 2, 4};
        __kernel void k(__global int *a) {
            __requires(get_local_size(0) == 3);
            __ensures(a[get_local_id(0)] == 1 << get_local_id(0));
            a[get_local_id(0)] = w[get_local_id(0)];
        }
        """
    assert verdict(tmp_path, table) == ("verified", [])
    assert verdict(tmp_path, table.replace("{1, 2, 4}", "{1, 2, 5}")) == ("failed", ["postcondition:4"])


def test_vector_types_are_plain_structs() -> None:
    k = lowered(
        """
        __kernel void k(__global int2 *p, __global int *out) {
            int2 v = p[get_local_id(0)];
            out[get_local_id(0)] = v.x + v.y;
        }
        """
    )
    assert set(k.params) >= {"p.x", "p.y", "out"}
    # OpenCL's sizes: a 3-vector takes the room of a 4-vector
    sizes = lowered("__kernel void k(__global int *a) { a[0] = sizeof(int3); a[1] = sizeof(float2); }\n")
    assert "a[0] := 16" in show_kernel(sizes) and "a[1] := 8" in show_kernel(sizes)


# ---------------------------------------------------------------- verdicts


def test_grid_kernel_verified_and_its_planted_bug_refuted(tmp_path: Path) -> None:
    good = """
        __kernel void add(__global int *a, __global int *b) {
            __requires(get_local_size(0) == 4);
            __requires(get_num_groups(0) == 2);
            __ensures(b[get_global_id(0)] == a[get_global_id(0)] + 1);
            b[get_global_id(0)] = a[get_group_id(0) * get_local_size(0) + get_local_id(0)] + 1;
        }
        """
    assert verdict(tmp_path, good) == ("verified", [])
    bad = good.replace("get_group_id(0) * get_local_size(0) + ", "")
    assert verdict(tmp_path, bad) == ("failed", ["postcondition:4"])


def test_our_annotations_in_opencl(tmp_path: Path) -> None:
    text = """
        /*@ requires blockDim.x == 4 && gridDim.x == 1;
            ensures \\forall int i; 0 <= i && i < 4 ==> a[i] == i; */
        __kernel void k(__global int *a) {
            __local int s[4];
            s[get_local_id(0)] = get_local_id(0);
            barrier(CLK_LOCAL_MEM_FENCE);
            a[get_local_id(0)] = s[get_local_id(0)];
        }
        """
    assert verdict(tmp_path, text) == ("verified", [])
    bug = """
        /*@ requires blockDim.x == 4 && gridDim.x == 1;
            ensures a[threadIdx.x] == threadIdx.x + 1; */
        __kernel void k(__global int *a) {
            a[get_local_id(0)] = get_local_id(0);
        }
        """
    assert verdict(tmp_path, bug) == ("failed", ["postcondition:2"])


def test_launch_from_the_command_line_decides(tmp_path: Path) -> None:
    text = """
        __kernel void k(__global int *a) {
            __assert(get_global_size(0) == 32);
        }
        """
    assert verdict(tmp_path, text, opencl_launch("8", None, "32")) == ("verified", [])
    assert verdict(tmp_path, text, opencl_launch("8", "2", None)) == ("failed", ["assertion:2"])


# ---------------------------------------------------------------- rejections


@pytest.mark.parametrize(
    ("body", "construct"),
    [
        ("int d = 0; a[get_local_id(d)] = 1;", "'get_local_id' of a dimension that is not a constant"),
        ("a[get_group_id(3)] = 1;", "'get_group_id' of dimension 3"),
        ("int f = 1; barrier(f);", "'barrier' with these flags"),
        ("a[0] = get_global_offset(0);", "call to 'get_global_offset'"),
    ],
)
def test_unsupported_constructs_are_named_at_their_position(body: str, construct: str) -> None:
    with pytest.raises(UnsupportedError) as err:
        lowered(f"__kernel void k(__global int *a) {{\n    {body}\n}}\n")
    assert err.value.construct == construct
    assert err.value.span.path == "k.cl" and err.value.span.line == 2


def test_a_file_without_kernel_says_kernel() -> None:
    with pytest.raises(SpecError, match="no '__kernel' kernel"):
        parse_text("int f(int x) { return x; }\n", "k.cl")


def test_clang_errors_in_opencl_are_positioned() -> None:
    with pytest.raises(SpecError) as err:
        parse_text("__kernel void k(__global int *a) {\n  a[0] = undefined_name;\n}\n", "k.cl")
    assert err.value.span.line == 2 and "undefined_name" in err.value.message


def test_defines_reach_opencl_files() -> None:
    k = lowered("__kernel void k(__global int *a) { a[0] = N; }\n", options=ClangOptions(("N=7",)))
    assert "a[0] := 7" in show_kernel(k)


# ---------------------------------------------------------------- launch flags


def test_opencl_launch_sizes() -> None:
    assert opencl_launch("[16,2]", "4", None) == Launch((16, 2, 1), (4, 1, 1))
    assert opencl_launch("8", None, "64") == Launch((8, 1, 1), (8, 1, 1))
    assert opencl_launch("[4,4]", "[2,3]", "[8,12]") == Launch((4, 4, 1), (2, 3, 1))
    assert opencl_launch(None, None, None) == Launch()
    assert opencl_launch("8", None, "*") == Launch((8, 1, 1), (None, None, None))  # GPUVerify's `*`: open


@pytest.mark.parametrize(
    ("local", "groups", "total", "message"),
    [
        ("8", None, "30", "not a multiple of --local_size 8"),
        (None, None, "32", "--global_size needs --local_size"),
        ("8", "2", "32", "--num_groups gives"),
        ("0", None, None, "at least 1"),
    ],
)
def test_opencl_launch_errors(local: str | None, groups: str | None, total: str | None, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        opencl_launch(local, groups, total)


def test_cli_flags(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "k.cl"
    f.write_text("__kernel void k(__global int *a) {\n  __assert(get_global_size(0) == N);\n}\n")
    assert main(["verify", str(f), "-DN=32", "--local_size=8", "--global_size=32"]) == 0
    assert main(["verify", str(f), "-DN=32", "--local_size=8", "--num_groups=2"]) == 1
    assert main(["verify", str(f), "-DN=32", "--local_size=8", "--blockDim=4"]) == 3
    assert "--blockDim/--gridDim give 4" in capsys.readouterr().err
    assert main(["run", str(f), "-DN=16", "--local_size=4", "--num_groups=4"]) == 0
    assert main(["verify", str(tmp_path)]) == 3  # a folder: the .cl file is found (N undefined)


ATOMIC_LAUNCH = """
    __requires(get_local_size(0) == 4);
    __requires(get_local_size(1) == 1);
    __requires(get_local_size(2) == 1);
    __requires(get_num_groups(0) == 2);
    __requires(get_num_groups(1) == 1);
    __requires(get_num_groups(2) == 1);"""


def test_opencl_atomics_are_the_atomics(tmp_path: Path) -> None:
    """`atomic_inc(p)` adds 1 and `atomic_dec(p)` subtracts 1 (no bound, unlike CUDA's
    atomicInc); `atomic_add`, `atom_*` likewise; two work-groups of 4 count to 8."""
    ok = f"""
    __kernel void count(__global int *c, __global int *r) {{{ATOMIC_LAUNCH}
        __ensures(c[0] == __old_int(c[0]) + 8);
        __ensures(c[1] == __old_int(c[1]) - 8);
        __ensures(c[2] == __old_int(c[2]) + 16);
        atomic_inc(&c[0]);
        atomic_dec(c + 1);
        atom_add(&c[2], 2);
        atomic_xchg(&r[get_global_id(0)], 5);
    }}
    """
    assert verdict(tmp_path, ok) == ("verified", [])
    bug = f"""
    __kernel void count_bug(__global int *c) {{{ATOMIC_LAUNCH}
        __ensures(c[0] == __old_int(c[0]) + 4);
        atomic_inc(&c[0]);
    }}
    """
    assert verdict(tmp_path, bug) == ("failed", ["postcondition:8"])


def test_a_function_without_body_is_declared_only(tmp_path: Path) -> None:
    """OpenCL has no `__device__`: any function declared without a body is one whose value is
    arbitrary (as CUDA's body-less `__device__` functions); GPUVerify's fail_bodiless_procedure."""
    text = """
    unsigned bar(unsigned, unsigned);
    __kernel void foo(unsigned x, unsigned y) {
        unsigned z;
        z = bar(x, y);
        __assert(z >= x);
    }
    """
    assert verdict(tmp_path, text, Launch((4, 1, 1), (1, 1, 1))) == ("failed", ["assertion:5"])
    warnings = [w.tag for w in lowered(text).warnings]
    assert "declared-only" in warnings


@pytest.mark.parametrize(
    ("call", "claim", "holds"),
    [
        (
            "add_sat(a[0], b[0])",
            "r[0] <= 2147483647"
            " && (a[0] + b[0] > 2147483647 || a[0] + b[0] < -2147483648 || r[0] == a[0] + b[0])",
            True,
        ),
        ("add_sat(a[0], b[0])", "r[0] == a[0] + b[0]", False),  # not past INT_MAX
        ("sub_sat(a[0], b[0])", "r[0] >= -2147483648", True),
    ],
)
def test_saturating_arithmetic_clamps_to_the_type(tmp_path: Path, call: str, claim: str, holds: bool) -> None:
    text = f"""
    __kernel void k(__global int *a, __global int *b, __global int *r) {{
        __requires(get_local_size(0) == 1);
        __ensures({claim});
        if (get_local_id(0) == 0) {{ r[0] = {call}; mem_fence(CLK_GLOBAL_MEM_FENCE); }}
    }}
    """
    verdict_, refuted = verdict(tmp_path, text, Launch((1, 1, 1), (1, 1, 1)))
    assert verdict_ == ("verified" if holds else "failed"), refuted
