"""`hoaregpu verify PATH...`: prove the contracts of kernels."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..limits import DEFAULT_UNROLL
from .common import (
    EXIT_CODES,
    EXIT_INPUT,
    add_confirm_option,
    add_executor_options,
    add_grid_options,
    add_preprocessor_options,
    add_solver_options,
    launch_of,
    solver_arguments,
)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    v = sub.add_parser(
        "verify",
        help="prove the contracts of the kernels in .cu files or folders",
        epilog=EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    v.add_argument("paths", nargs="+", metavar="PATH", help=".cu/.cl files, or folders searched for them")
    v.add_argument("--threads", type=int, metavar="N", help="fix the thread count (blockDim.x) to N")
    add_grid_options(v)
    add_preprocessor_options(v)
    v.add_argument(
        "--unroll",
        type=int,
        default=DEFAULT_UNROLL,
        metavar="N",
        help=f"unroll a loop without invariant whose trip count is a thread-independent constant "
        f"of at most N iterations ({DEFAULT_UNROLL}; 0: never)",
    )
    v.add_argument("--json", action="store_true", help="print one JSON document instead of text")
    v.add_argument(
        "--sarif",
        metavar="FILE",
        help="also write the results as SARIF 2.1.0 to FILE "
        "('-': to standard output, instead of the text report)",
    )
    v.add_argument(
        "--show-core", action="store_true", help="print the core program after lowering and transforms"
    )
    v.add_argument(
        "--no-replay",
        action="store_true",
        help="do not run refuted VCs' counterexamples through the interpreter to confirm them",
    )
    v.add_argument(
        "--dump-smt",
        metavar="DIR",
        help="also write every VC's SMT-LIB script to DIR/<file-stem>/<kernel>/<NN>-<kind>-L<line>.smt2",
    )
    v.add_argument(
        "--expect",
        action="store_true",
        help="compare each file's verdicts with its `// expect:` line (specs/README.md); "
        "exit 0 when all match, 1 otherwise",
    )
    v.add_argument(
        "--no-cache",
        action="store_true",
        help="do not use the result cache (.hoaregpu-cache/ or $HOAREGPU_CACHE_DIR)",
    )
    races = v.add_mutually_exclusive_group()
    races.add_argument(
        "--assume-race-free",
        action="store_true",
        help="do not prove the kernels free of data races (no VCs of kind data-race, "
        "docs/races.md): the verdicts then assume race-freedom, and the report says so",
    )
    # race checking is the default; the old switch stays accepted so that scripts keep working
    races.add_argument("--check-races", action="store_true", help="the default (accepted for old scripts)")
    v.add_argument(
        "--benign-writes",
        choices=("same-value", "unread-values", "none"),
        default="same-value",
        help="which writes of one value to one cell by two threads are no race: every one "
        "(same-value, the default: the paper's Definition 5.4(b)), those whose value reads no "
        "memory (unread-values: GPUVerify's default), none (GPUVerify's --no-benign-tolerance)",
    )
    v.add_argument(
        "--show-invariants",
        action="store_true",
        help="print the loop invariants inferred for the race checks (Houdini survivors), per loop",
    )
    add_solver_options(v)
    add_confirm_option(v)
    add_executor_options(v)
    v.set_defaults(func=run)


if TYPE_CHECKING:
    from ..prepared import PreparedKernel


def run(args: argparse.Namespace) -> int:
    # the pipeline is imported here, not at the top: `hoaregpu --help` must start fast
    from ..api.verifying import verify
    from ..pretty import show_kernel
    from ..report import expectation_report, invariant_lines, render_json, render_text
    from ..sarif import write_sarif
    from ..solvers.portfolio import confirm_members

    def show(prepared: Sequence[PreparedKernel]) -> None:
        if args.show_core:
            for k in prepared:
                print(f"// {k.path}\n{show_kernel(k.kernel)}\n")
        if args.show_invariants:
            print("\n".join(invariant_lines(prepared)))
        if args.dump_smt:
            from ..driver import dump_smt

            dump_smt(prepared, args.dump_smt)

    verification = verify(
        args.paths,
        **solver_arguments(args),
        fixed=launch_of(args, args.threads),
        unroll=args.unroll,
        defines=args.defines,
        include_dirs=args.include_dirs,
        confirm=args.confirm,
        cache=not args.no_cache,
        replay=not args.no_replay,
        solver_cmd=args.solver_cmd,
        on_prepared=show if args.show_core or args.show_invariants or args.dump_smt else None,
        check_races=not args.assume_race_free,
        benign_writes=args.benign_writes,
        executor=args.executor,
        scheduler=args.scheduler,
    )
    result = verification.raw
    if args.sarif:
        write_sarif(result, args.sarif)
    if args.sarif != "-":
        print(render_json(result) if args.json else render_text(result))
    if args.expect:
        lines, met = expectation_report(
            result, ",".join(confirm_members(args.solver)) if args.confirm else args.solver
        )
        print("\n".join(lines), file=sys.stderr if args.json else sys.stdout)
        return EXIT_INPUT if result.errors else (0 if met else 1)
    return result.exit_code
