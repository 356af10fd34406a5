"""`hoaregpu test FILE`: random testing of a kernel's contracts, with a shrunk counterexample."""

from __future__ import annotations

import argparse
import re

from ..errors import ConfigError
from ..limits import TEST_STEP_BUDGET
from .common import (
    INTERPRETED,
    add_grid_options,
    add_no_executor_options,
    add_preprocessor_options,
    launch_of,
)
from .run import add_kernel_options

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
    add_no_executor_options(p, INTERPRETED.format("test"))
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..api.execution import test

    if args.trials < 1:
        raise ConfigError(f"--trials must be at least 1, not {args.trials}")
    if args.step_budget < 1:
        raise ConfigError(f"--step-budget must be at least 1, not {args.step_budget}")
    result = test(
        args.file,
        kernel=args.kernel,
        threads=args.threads,
        fixed=launch_of(args),
        trials=args.trials,
        seed=args.seed,
        step_budget=args.step_budget,
        fail_on_race=args.fail_on_race,
        native=args.native,
        defines=tuple(args.defines),
        include_dirs=tuple(args.include_dirs),
    )
    print(result.text)
    return result.exit_code
