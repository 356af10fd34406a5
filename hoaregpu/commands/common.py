"""Options shared by several subcommands, and the documented exit codes."""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING, Any

from ..errors import ConfigError
from ..limits import DEFAULT_STRATEGIES

if TYPE_CHECKING:  # imported where used: `hoaregpu --help` needs none (issue 14, fast start)
    from ..clang_options import ClangOptions
    from ..launch import Launch
    from ..solvers import SolverOptions

EXIT_CODES = """exit codes:
  0  every verification condition proved
  1  some verification condition refuted (a counterexample exists)
  2  nothing refuted, but some VC unknown, timed out or hit a solver error
  3  input error (bad spec file or command line)
  4  internal error (a bug in hoaregpu; HOAREGPU_DEBUG=1 shows the traceback)"""

EXIT_PROVED, EXIT_REFUTED, EXIT_UNDECIDED, EXIT_INPUT, EXIT_INTERNAL = 0, 1, 2, 3, 4


def add_solver_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--solver",
        default="z3",
        help="solver backend (see `hoaregpu solvers`), `portfolio` (= z3,cvc5) or a list like z3,cvc5 "
        "raced per VC (default z3)",
    )
    p.add_argument("--timeout", type=float, default=10.0, metavar="SECONDS", help="time limit per VC (10)")
    p.add_argument("--memory", type=int, default=4096, metavar="MB", help="memory cap per solver (4096)")
    p.add_argument("--seed", type=int, default=0, help="random seed passed to the solver (0)")
    p.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 1, help="VCs solved in parallel")
    p.add_argument(
        "--strategies",
        type=int,
        default=DEFAULT_STRATEGIES,
        metavar="N",
        help="configurations of the solver run at once on each VC, sharing its time limit (z3: "
        f"macro finder, plain); 1 runs them in sequence on shares of it ({DEFAULT_STRATEGIES})",
    )
    p.add_argument(
        "--incremental",
        action="store_true",
        help="solve each kernel's VCs in one solver session (push/pop) that reads the kernel's "
        "shared SMT text once (z3, z3-bin, cvc4-bin, cvc5-bin; z3 with its macro finder only); "
        "a session error falls back to one process per VC",
    )
    add_solver_cmd_option(p)


def solver_arguments(args: argparse.Namespace) -> dict[str, Any]:
    """The API's keyword arguments for what `add_solver_options` reads."""
    return {
        "solver": args.solver,
        "timeout": args.timeout,
        "memory_mb": args.memory,
        "seed": args.seed,
        "jobs": args.jobs,
        "strategies": args.strategies,
        "incremental": args.incremental,
    }


def add_executor_options(p: argparse.ArgumentParser, what: str = "VCs are solved", grain: str = "") -> None:
    p.add_argument(
        "--executor",
        choices=("local", "dask"),
        default="local",
        help=f"where {what}: `local` worker processes (default), or a Dask cluster "
        f"(`pip install 'hoaregpu[dask]'`{'; ' + grain if grain else ''}): a local one of --jobs workers, "
        "or --scheduler's",
    )
    p.add_argument(
        "--scheduler",
        metavar="tcp://HOST:PORT",
        help="with --executor dask: the scheduler of an existing Dask cluster (its workers need "
        "hoaregpu and the solvers installed)",
    )


class _NoExecutor(argparse.Action):
    """`--executor`/`--scheduler` on a command that has nothing to spread: a usage error that
    says why, not argparse's bare "unrecognized arguments" (nor a silent ignore)."""

    def __call__(
        self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any, option: Any = None
    ) -> None:
        parser.error(f"{option} is not available here: {self.help_text}")

    help_text = ""


INTERPRETED = (
    "{} executes the kernel in the interpreter on this machine and solves nothing worth spreading "
    "over a cluster"
)
TIMED = "bench measures each solver's own time on this machine, which a cluster would distort"


def add_no_executor_options(p: argparse.ArgumentParser, why: str) -> None:
    """Refuse `--executor` and `--scheduler` with `why` (hidden from --help)."""
    text = why + "; --executor is for verify, prove, check, suite and lsp"
    action = type("NoExecutor", (_NoExecutor,), {"help_text": text})
    p.add_argument("--executor", "--scheduler", action=action, help=argparse.SUPPRESS, dest="_no_executor")


def add_confirm_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--confirm",
        action="store_true",
        help="count a VC as proved only when two different solvers prove it: the --solver ones "
        "plus, if they are one solver, the first available of z3, cvc5, z3-bin, cvc5-bin, cvc4-bin "
        "of another; every solver runs to its end, and one proving what another refutes is an error",
    )


def add_solver_cmd_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--solver-cmd",
        action="append",
        default=[],
        metavar="NAME=COMMAND",
        help="add a solver: COMMAND reads SMT-LIB on stdin (repeatable; also [solvers] in hoaregpu.toml)",
    )


def add_grid_options(p: argparse.ArgumentParser) -> None:
    """GPUVerify's launch flags: `--blockDim=[16,16]`, `--gridDim=8` (missing sizes are 1)."""
    p.add_argument(
        "--blockDim",
        dest="block_dim",
        metavar="[X,Y,Z]",
        help="fix blockDim, e.g. 256 or [16,16] (sizes not given are 1)",
    )
    p.add_argument(
        "--gridDim",
        dest="grid_dim",
        metavar="[X,Y,Z]",
        help="fix gridDim, e.g. 8 or [4,4] (sizes not given are 1)",
    )

    # OpenCL's names (a work-group is a block, a work-item a thread)
    p.add_argument(
        "--local_size",
        dest="local_size",
        metavar="[X,Y,Z]",
        help="OpenCL: work-items per work-group (= --blockDim)",
    )
    p.add_argument(
        "--num_groups",
        dest="num_groups",
        metavar="[X,Y,Z]",
        help="OpenCL: work-groups (= --gridDim)",
    )
    p.add_argument(
        "--global_size",
        dest="global_size",
        metavar="[X,Y,Z]",
        help="OpenCL: work-items in all (= num_groups x local_size; needs --local_size, divisible by it)",
    )


def add_preprocessor_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "-D",
        dest="defines",
        action="append",
        default=[],
        metavar="NAME[=VALUE]",
        help="define a preprocessor macro (repeatable), as for a compiler",
    )
    p.add_argument(
        "-I", dest="include_dirs", action="append", default=[], metavar="DIR", help="add an include folder"
    )


def clang_options(args: argparse.Namespace) -> ClangOptions:
    from ..clang_options import ClangOptions  # the front end is imported where used

    return ClangOptions(tuple(getattr(args, "defines", ())), tuple(getattr(args, "include_dirs", ())))


def launch_of(args: argparse.Namespace, threads: int | None = None) -> Launch:
    """The sizes `--threads`, `--blockDim`, `--gridDim` and OpenCL's `--local_size`,
    `--num_groups`, `--global_size` fix (a contradiction is an input error)."""
    from ..launch import Launch, opencl_launch, parse_dims

    block = parse_dims(args.block_dim, "--blockDim") if args.block_dim is not None else (None, None, None)
    grid = parse_dims(args.grid_dim, "--gridDim") if args.grid_dim is not None else (None, None, None)
    launch = Launch(block, grid).merged(
        opencl_launch(
            getattr(args, "local_size", None),
            getattr(args, "num_groups", None),
            getattr(args, "global_size", None),
        ),
        lambda name, a, b: f"the OpenCL sizes give {name} = {b}, but --blockDim/--gridDim give {a}",
    )
    if threads is not None:
        if threads < 1:
            raise ConfigError(f"--threads must be at least 1, not {threads}")
        launch = launch.merged(
            Launch.of_threads(threads),
            lambda name, a, b: f"--threads {b} contradicts --blockDim ({name} = {a})",
        )
    return launch


def solver_options(args: argparse.Namespace) -> SolverOptions:
    from ..solvers import SolverOptions

    return SolverOptions(
        timeout=args.timeout,
        memory_mb=args.memory,
        seed=args.seed,
        strategies=args.strategies,
        incremental=args.incremental,
    )
