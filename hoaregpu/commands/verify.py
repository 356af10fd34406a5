"""`hoaregpu verify PATH...`: prove the contracts of kernels."""

from __future__ import annotations

import argparse

from ..driver import PreparedKernel, RunResult, VerifyOptions, load_kernels, prepare_kernel, solve, spec_files
from ..errors import SpecError
from ..pretty import show_kernel
from ..report import render_json, render_text
from ..solvers import get_backend
from .common import EXIT_CODES, add_solver_options, solver_options


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
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
        "--show-core", action="store_true", help="print the core program after lowering and transforms"
    )
    add_solver_options(v)
    v.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    options = VerifyOptions(
        solver=args.solver, solver_options=solver_options(args), threads=args.threads, jobs=args.jobs
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
    result = RunResult(tuple(solve(prepared, options)), tuple(errors))
    print(render_json(result) if args.json else render_text(result))
    return result.exit_code
