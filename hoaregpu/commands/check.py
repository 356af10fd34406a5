"""`hoaregpu check PROOF...`: check derivations (proofs/*.proof); `--replay` compares
with the recorded solver results."""

from __future__ import annotations

import argparse

from .common import EXIT_CODES, add_executor_options, add_solver_options, solver_arguments


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "check",
        help="check Hoare-logic derivations (.proof files, see proofs/README.md)",
        epilog=EXIT_CODES.replace("verification condition", "side condition")
        + "\n  (3 also: the proof is stale, its kernel's program changed)",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("paths", nargs="+", metavar="PATH", help=".proof files, or folders searched for them")
    p.add_argument(
        "--replay",
        action="store_true",
        help="re-run each side condition with its recorded solver and report what changed",
    )
    p.add_argument("--update", action="store_true", help="rewrite the recorded solver results after a check")
    add_solver_options(p)
    add_executor_options(p, "side conditions are solved", "one Dask task per side condition")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    # the pipeline is imported here, not at the top: `hoaregpu --help` must start fast
    from ..api.proving import check

    result = check(
        args.paths,
        replay=args.replay,
        update=args.update,
        **solver_arguments(args),
        executor=args.executor,
        scheduler=args.scheduler,
    )
    print(result.report())
    return result.exit_code
