"""The `hoaregpu` command line."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from . import __version__
from .driver import PreparedKernel, RunResult, VerifyOptions, load_kernels, prepare_kernel, solve, spec_files
from .errors import HoareGpuError, SpecError
from .pretty import show_kernel
from .report import render_json, render_text
from .solvers import SolverOptions, get_backend, list_backends

EXIT_CODES = """exit codes:
  0  every verification condition proved
  1  some verification condition refuted (a counterexample exists)
  2  nothing refuted, but some VC unknown, timed out or hit a solver error
  3  input error (bad spec file or command line)"""


def _add_solver_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--solver", default="z3", help="solver backend (see `hoaregpu solvers`; default z3)")
    p.add_argument("--timeout", type=float, default=10.0, metavar="SECONDS", help="time limit per VC (10)")
    p.add_argument("--memory", type=int, default=4096, metavar="MB", help="memory cap per solver (4096)")
    p.add_argument("--seed", type=int, default=0, help="random seed passed to the solver (0)")
    p.add_argument("--jobs", "-j", type=int, default=os.cpu_count() or 1, help="VCs solved in parallel")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="hoaregpu",
        description="Prove CUDA kernels correct with the Hoare-quadruple logic of Kojima & Igarashi.",
        epilog=EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"hoaregpu {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    v = sub.add_parser(
        "verify",
        help="prove the contracts of the kernels in .cu files or folders",
        epilog=EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    v.add_argument("paths", nargs="+", metavar="PATH", help=".cu files, or folders searched for them")
    v.add_argument("--threads", type=int, metavar="N", help="fix the thread count (blockDim.x) to N")
    v.add_argument("--json", action="store_true", help="print one JSON document instead of text")
    v.add_argument(
        "--show-core",
        action="store_true",
        help="print the core program after lowering and transforms",
    )
    _add_solver_options(v)

    sub.add_parser("solvers", help="list the solver backends, their versions and availability")
    return parser


def cmd_verify(args: argparse.Namespace) -> int:
    options = VerifyOptions(
        solver=args.solver,
        solver_options=SolverOptions(timeout=args.timeout, memory_mb=args.memory, seed=args.seed),
        threads=args.threads,
        jobs=args.jobs,
    )
    get_backend(options.solver)  # an unknown name is an input error before any work
    prepared: list[PreparedKernel] = []
    errors: list[SpecError] = []
    for path in spec_files(args.paths):
        try:
            kernels = load_kernels(path)
            prepared.extend(prepare_kernel(path, k, options.threads) for k in kernels)
        except SpecError as e:
            errors.append(e)
    if args.show_core:
        for k in prepared:
            print(f"// {k.path}\n{show_kernel(k.kernel)}\n")
    run = RunResult(tuple(solve(prepared, options)), tuple(errors))
    print(render_json(run) if args.json else render_text(run))
    return run.exit_code


def cmd_solvers() -> int:
    for b in list_backends():
        state = "available" if b.available else f"unavailable ({b.reason})"
        print(f"{b.name:10} {b.version or '-':24} {state}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.command == "verify":
            return cmd_verify(args)
        if args.command == "solvers":
            return cmd_solvers()
    except SpecError as e:
        print(e.render(), file=sys.stderr)
        return 3
    except HoareGpuError as e:
        print(f"hoaregpu: error: {e}", file=sys.stderr)
        return 3
    except KeyboardInterrupt:
        print("hoaregpu: interrupted", file=sys.stderr)
        return 130
    raise AssertionError(f"unhandled command {args.command}")


if __name__ == "__main__":
    sys.exit(main())
