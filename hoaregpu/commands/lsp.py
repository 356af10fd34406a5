"""`hoaregpu lsp`: the language server on standard input/output (hoaregpu/lsp.py)."""

from __future__ import annotations

import argparse

from .common import add_executor_options, add_solver_cmd_option


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "lsp",
        help="run the language server (LSP on stdin/stdout): diagnostics for .cu files on open and save",
    )
    p.add_argument("--solver", default="z3", help="solver backend (z3)")
    p.add_argument("--timeout", type=float, default=10.0, metavar="S", help="per VC (10 s)")
    p.add_argument("--jobs", type=int, default=1, metavar="J", help="VCs solved in parallel (1)")
    add_solver_cmd_option(p)
    add_executor_options(
        p,
        "VCs are solved",
        "a local cluster is started once with the server and kept; each check's VCs are tasks",
    )
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..lsp import serve  # pygls is imported only here: `hoaregpu --help` must start fast
    from ..solvers.config import register_user_solvers
    from ..solvers.executor import check_executor
    from ..solvers.portfolio import check_solver

    register_user_solvers(args.solver_cmd)
    check_solver(args.solver)
    check_executor(args.executor, args.scheduler)
    serve(args.solver, args.timeout, args.jobs, args.solver_cmd, args.executor, args.scheduler)
    return 0
