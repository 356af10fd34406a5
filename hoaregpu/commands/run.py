"""`hoaregpu run FILE --threads N`: execute a kernel once and check its contracts at run time."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import ConfigError
from ..limits import DEFAULT_STEP_BUDGET, INTERLEAVE, LOCKSTEP
from .common import (
    INTERPRETED,
    add_grid_options,
    add_no_executor_options,
    add_preprocessor_options,
    launch_of,
)

if TYPE_CHECKING:  # the pipeline is imported where used: `hoaregpu --help` must start fast
    from ..clang_options import ClangOptions
    from ..core import Kernel

RACE_KINDS = frozenset({"race", "write-conflict"})  # interp.results.RACE, WRITE_CONFLICT

RUN_EXIT_CODES = """exit codes:
  0  no violation (races and write conflicts are warnings unless --fail-on-race)
  1  a contract violation (requires on entry excepted), barrier divergence, run-time
     error (division by zero) or exhausted step budget
  3  input error (bad file, command line or --input; an input that violates `requires`)"""


def add_kernel_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", metavar="FILE", help="a .cu or .cl file")
    p.add_argument("--kernel", metavar="NAME", help="the kernel to run when the file has several")
    p.add_argument(
        "--fail-on-race",
        action="store_true",
        help="count data races and write conflicts as failures (default: warnings)",
    )


def select_kernel(path: str, name: str | None, clang: ClangOptions | None = None) -> Kernel:
    """`api.execution.select_kernel` (imported where used: `hoaregpu --help` must start fast)."""
    from ..api.execution import select_kernel as select

    return select(path, name, clang)


def read_inputs(text: str | None) -> dict[str, Any] | None:
    """`--input`: a JSON object, or `@file.json`."""
    from ..interp.values import InputError

    if text is None:
        return None
    if text.startswith("@"):
        try:
            text = Path(text[1:]).read_text(encoding="utf-8")
        except OSError as e:
            raise InputError(f"cannot read --input file {text[1:]}: {e.strerror}") from None
    try:
        value = json.loads(text)
    except json.JSONDecodeError as e:
        raise InputError(f"--input is not valid JSON: {e}") from None
    except RecursionError:
        # json nests by recursion; no input value nests deeper than an array's dimensions.
        raise InputError("--input is nested too deeply to be a kernel input") from None
    if not isinstance(value, dict):
        raise InputError("--input must be a JSON object mapping parameter names to values")
    return value


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "run",
        help="execute a kernel once (lockstep semantics) and check its contracts at run time",
        epilog=RUN_EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_kernel_options(p)
    p.add_argument("--threads", type=int, metavar="N", help="thread count (default: the fixed blockDim.x)")
    add_grid_options(p)
    add_preprocessor_options(p)
    p.add_argument(
        "--input",
        metavar="JSON|@FILE",
        help='parameter values, e.g. \'{"n": 5, "a": [1, 2, 3]}\' (default: sampled admissible values)',
    )
    p.add_argument(
        "--seed", type=int, default=0, help="seed for sampled inputs and nondeterministic choices (0)"
    )
    p.add_argument(
        "--step-budget",
        type=int,
        default=DEFAULT_STEP_BUDGET,
        metavar="B",
        help=f"stop after B lockstep steps ({DEFAULT_STEP_BUDGET})",
    )
    p.add_argument(
        "--semantics",
        choices=(LOCKSTEP, INTERLEAVE),
        default=LOCKSTEP,
        help="lockstep (paper Fig. 1, default) or one seeded interleaving (§5)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON document instead of text")
    add_no_executor_options(p, INTERPRETED.format("run"))
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..api.execution import run as execute

    if args.step_budget < 1:
        raise ConfigError(f"--step-budget must be at least 1, not {args.step_budget}")
    result = execute(
        args.file,
        kernel=args.kernel,
        fixed=launch_of(args, args.threads),
        inputs=read_inputs(args.input),
        seed=args.seed,
        step_budget=args.step_budget,
        semantics=args.semantics,
        fail_on_race=args.fail_on_race,
        defines=tuple(args.defines),
        include_dirs=tuple(args.include_dirs),
    )
    print(json.dumps(result.to_json(), indent=2) if args.json else result.text)
    return result.exit_code
