"""`hoaregpu prove FILE`: derive each kernel's quadruple by weakest preconditions,
discharge every side condition, and write the derivation (proofs/README.md)."""

from __future__ import annotations

import argparse

from .common import EXIT_CODES, add_executor_options, add_solver_options, solver_arguments


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "prove",
        help="write a checkable Hoare-logic derivation for each kernel of a .cu file",
        epilog=EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("file", metavar="FILE", help="a spec (.cu file)")
    p.add_argument("--kernel", metavar="NAME", help="only this kernel")
    p.add_argument(
        "-o", "--output", metavar="PATH", help="where to write the proof (default proofs/KERNEL.proof)"
    )
    add_solver_options(p)
    add_executor_options(p, "side conditions are solved", "one Dask task per side condition")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    # the pipeline is imported here, not at the top: `hoaregpu --help` must start fast
    from ..api.proving import prove

    result = prove(
        args.file,
        kernel=args.kernel,
        output=args.output,
        **solver_arguments(args),
        executor=args.executor,
        scheduler=args.scheduler,
    )
    print(result.report())
    return result.exit_code
