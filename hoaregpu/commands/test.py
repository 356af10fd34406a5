"""`hoaregpu test FILE`: random testing of a kernel's contracts, with a shrunk counterexample."""

from __future__ import annotations

import argparse
import json
import re
import shlex
from typing import TYPE_CHECKING

from ..errors import ConfigError
from ..limits import TEST_STEP_BUDGET
from .common import EXIT_UNDECIDED, add_grid_options, add_preprocessor_options, clang_options, launch_of
from .run import RACE_KINDS, add_kernel_options, launch_flags, select_kernel

if TYPE_CHECKING:  # the pipeline is imported where used: `hoaregpu --help` must start fast
    from ..core import Kernel
    from ..interp import native
    from ..interp.results import RunResult, TestResult

TEST_EXIT_CODES = """exit codes:
  0  no violation in any run (races and write conflicts are warnings unless --fail-on-race)
  1  a violation was found: a shrunk counterexample and a `hoaregpu run` line reproducing it
     (--native: or a native run disagrees with the interpreter)
  2  no input satisfied `requires` (nothing was run)
  3  input error (bad file or command line)"""


def thread_range(text: str) -> tuple[int, int]:
    """`A..B` or `N`."""
    m = re.fullmatch(r"\s*(\d+)\s*(?:\.\.\s*(\d+)\s*)?", text)
    if m is None:
        raise argparse.ArgumentTypeError(f"expected A..B or N, not {text!r}")
    lo = int(m.group(1))
    hi = int(m.group(2)) if m.group(2) is not None else lo
    if lo < 1 or hi < lo:
        raise argparse.ArgumentTypeError(f"bad thread range {text!r}: need 1 <= A <= B")
    return lo, hi


def reproduce_command(path: str, kernel: str | None, result: TestResult) -> str | None:
    ce = result.counterexample
    if ce is None:
        return None
    parts = ["hoaregpu", "run", path, *launch_flags(ce.initial.geo)]
    if kernel is not None:
        parts += ["--kernel", kernel]
    parts += ["--input", json.dumps(ce.inputs, separators=(",", ":"))]
    if ce.seed:
        parts += ["--seed", str(ce.seed)]
    return " ".join(shlex.quote(p) for p in parts)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "test",
        help="run a kernel on random admissible inputs and check its contracts at run time",
        epilog=TEST_EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_kernel_options(p)
    p.add_argument(
        "--threads",
        type=thread_range,
        default=(1, 8),
        metavar="A..B",
        help="thread counts to try (default 1..8; a fixed blockDim.x wins)",
    )
    add_grid_options(p)
    add_preprocessor_options(p)
    p.add_argument("--trials", type=int, default=100, metavar="K", help="inputs to try (100)")
    p.add_argument("--seed", type=int, default=0, help="random seed (0)")
    p.add_argument(
        "--step-budget",
        type=int,
        default=TEST_STEP_BUDGET,
        metavar="B",
        help=f"lockstep steps per run ({TEST_STEP_BUDGET})",
    )
    p.add_argument(
        "--native",
        action="store_true",
        help="also run every input natively (the source compiled by the system C/C++ compiler) "
        "and compare the final arrays with the interpreter's",
    )
    p.set_defaults(func=run)


def native_program(args: argparse.Namespace, kernel: Kernel) -> native.NativeProgram | None:
    """`--native`: the kernel compiled before any run (None, with a note, without a compiler)."""
    from ..interp import native

    if any(d.floating for d in kernel.decls):
        print(
            "note: --native skipped: the native executor exchanges integer arrays only"
            " (this kernel has floats)"
        )
        return None
    try:
        return native.build(args.file, kernel.name)
    except native.NativeUnavailable as e:
        print(f"note: --native skipped: {e}")
        return None
    except native.NativeBuildError as e:
        raise ConfigError(f"--native: {e}") from None


def report_native(args: argparse.Namespace, result: native.NativeTestResult) -> bool:
    """The native comparison of the runs `test` drew; False on a disagreement."""
    from ..interp import native

    v = result.verdicts
    why = ", ".join(f"{n} {r}" for r, n in result.reasons.most_common())
    print(
        f"native ({result.compiler}): {result.runs} runs, {v[native.AGREE]} agree, "
        f"{v[native.NOT_COMPARABLE]} not comparable{f' ({why})' if why else ''}, "
        f"{v[native.DISAGREE]} disagree"
    )
    if result.ok:
        return True
    first = result.disagreements[0]
    print(f"native run DISAGREES with the interpreter (first of {len(result.disagreements)}):")
    print(native.render_comparison(first))
    command = ["hoaregpu", "run", args.file, "--threads", str(first.threads)]  # native: one block
    if args.kernel is not None:
        command += ["--kernel", args.kernel]
    command += ["--input", json.dumps(first.inputs, separators=(",", ":"))]
    print("interpreter side: " + " ".join(shlex.quote(p) for p in command))
    return False


def run(args: argparse.Namespace) -> int:
    from ..interp import native, render_test, test_kernel
    from ..interp.solver_inputs import AutoInputs

    if args.trials < 1:
        raise ConfigError(f"--trials must be at least 1, not {args.trials}")
    if args.step_budget < 1:
        raise ConfigError(f"--step-budget must be at least 1, not {args.step_budget}")
    kernel = select_kernel(args.file, args.kernel, clang_options(args))
    generator = AutoInputs()
    program = native_program(args, kernel) if args.native else None
    compared = native.NativeTestResult(program.compiler.name) if program is not None else None

    def on_run(r: RunResult) -> None:  # each drawn run, also run natively (no second draw)
        if program is not None and compared is not None:
            compared.add(native.compare(kernel, program, r))

    result = test_kernel(
        kernel,
        args.threads,
        args.trials,
        args.seed,
        generator=generator,
        step_budget=args.step_budget,
        races_fail=args.fail_on_race,
        on_run=on_run if program is not None else None,
        launch=launch_of(args),
    )
    warnings = frozenset() if args.fail_on_race else RACE_KINDS
    if not result.ok:
        print(render_test(result, kernel, warnings))
        command = reproduce_command(args.file, args.kernel, result)
        print(f"reproduce with:\n  {command}")
        if compared is not None:
            report_native(args, compared)
        return 1
    print(render_test(result, kernel, warnings))
    if compared is not None and not report_native(args, compared):
        return 1
    if result.passed == 0:
        print(f"no admissible input found in {result.trials} tries: nothing was run")
        return EXIT_UNDECIDED
    print(f"{result.passed} runs, no violation")
    return 0
