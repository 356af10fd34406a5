"""`hoaregpu run FILE --threads N`: execute a kernel once and check its contracts at run time."""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import ConfigError
from ..limits import DEFAULT_STEP_BUDGET, INTERLEAVE, LOCKSTEP
from .common import EXIT_INPUT, add_grid_options, add_preprocessor_options, clang_options, launch_of

if TYPE_CHECKING:  # the pipeline is imported where used: `hoaregpu --help` must start fast
    from ..core import Kernel
    from ..frontend.clang import ClangOptions
    from ..interp.results import RunResult
    from ..launch import Geometry

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
    """Parse and lower `path`, pick the kernel, apply the monotonic-loop transform (as `verify`)."""
    from ..driver import load_kernels
    from ..transform import make_monotonic

    if not Path(path).is_file():
        raise ConfigError(f"no such file: {path}")
    kernels = load_kernels(path, clang)
    if name is not None:
        chosen = [k for k in kernels if k.name == name]
        if not chosen:
            names = ", ".join(k.name for k in kernels) or "none"
            raise ConfigError(f"{path} has no kernel named {name!r} (kernels: {names})")
    elif len([k for k in kernels if not k.device]) != 1:
        names = ", ".join(k.name for k in kernels) or "none"
        raise ConfigError(f"{path} has {len(kernels)} kernels ({names}); choose one with --kernel")
    else:  # the one __global__ kernel (device functions with contracts are chosen by name)
        chosen = [k for k in kernels if not k.device]
    return make_monotonic(chosen[0])


MAX_RUN_THREADS = 1 << 16  # the interpreter keeps a few lists per thread and steps them all


def launch_flags(geo: Geometry) -> list[str]:
    """The `run` flags that reproduce a launch."""
    if len(geo.live) == 1:
        return ["--threads", str(geo.threads)]
    s = geo.sizes
    return [f"--blockDim=[{s[0]},{s[1]},{s[2]}]", f"--gridDim=[{s[3]},{s[4]},{s[5]}]"]


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


def exit_code(result: RunResult, fail_on_race: bool) -> int:
    from ..interp.results import ASSUMPTION_VIOLATED, FAILED, INADMISSIBLE, OK

    if result.status == INADMISSIBLE:
        return EXIT_INPUT
    if result.status == ASSUMPTION_VIOLATED:
        return 0
    failures = [v for v in result.failures if fail_on_race or v.kind not in RACE_KINDS]
    return 1 if failures or result.status not in (OK, FAILED) else 0


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
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..grid import geometry
    from ..interp import render_run, run_kernel, run_to_json
    from ..interp.solver_inputs import AutoInputs
    from ..interp.values import inputs_of

    kernel = select_kernel(args.file, args.kernel, clang_options(args))
    threads = geometry(kernel, launch_of(args, args.threads))
    if threads.threads > MAX_RUN_THREADS:
        raise ConfigError(
            f"this launch has {threads.threads:,} threads; `run` executes at most {MAX_RUN_THREADS:,}"
        )
    if args.step_budget < 1:
        raise ConfigError(f"--step-budget must be at least 1, not {args.step_budget}")
    inputs = read_inputs(args.input)
    if inputs is None:  # sampled, or from z3 models of `requires` when sampling finds nothing
        state = AutoInputs()(kernel, threads, random.Random(args.seed))
        inputs = inputs_of(kernel, state) if state is not None else None
    result = run_kernel(kernel, threads, inputs, args.seed, args.step_budget, semantics=args.semantics)
    if args.json:
        print(json.dumps(run_to_json(result), indent=2))
    else:
        print(render_run(result, kernel, frozenset() if args.fail_on_race else RACE_KINDS))
    return exit_code(result, args.fail_on_race)
