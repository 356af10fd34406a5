"""`hoaregpu bench PATH... --solvers z3,cvc5,...`: compare solvers on the specs."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..errors import ConfigError
from .common import TIMED, add_no_executor_options, add_solver_cmd_option

DEFAULT_SOLVERS = "z3,cvc5,z3-bin,cvc4-bin,cvc5-bin"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "bench",
        help="run every VC of the specs with every solver and compare them (Table I style)",
        description="Run every VC of every spec with every solver; write solvers.md/.json (scored "
        "against the `// expect:` lines), vcs.csv and a cactus plot (PNG, SVG). No result cache.",
    )
    p.add_argument("paths", nargs="+", metavar="PATH", help=".cu files, or folders searched for them")
    p.add_argument(
        "--solvers",
        default=DEFAULT_SOLVERS,
        help=f"comma-separated solvers to compare; `portfolio` races z3 and cvc5 (default {DEFAULT_SOLVERS})",
    )
    p.add_argument("--timeout", type=float, default=10.0, metavar="SECONDS", help="time limit per VC (10)")
    p.add_argument("--memory", type=int, default=4096, metavar="MB", help="memory cap per solver (4096)")
    p.add_argument("--seed", type=int, default=0, help="random seed passed to the solvers (0)")
    p.add_argument("--repeat", type=int, default=1, metavar="R", help="runs per solver (1)")
    p.add_argument(
        "--jobs", "-j", type=int, default=1, help="VCs solved in parallel (1: timings are not disturbed)"
    )
    p.add_argument(
        "--strategies", type=int, default=2, metavar="N", help="solver configurations at once per VC (2)"
    )
    p.add_argument("-o", "--output", default="bench/results", metavar="DIR", help="(bench/results)")
    add_solver_cmd_option(p)
    add_no_executor_options(p, TIMED)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    # the pipeline, rich and matplotlib are imported here: `hoaregpu --help` must start fast
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from ..driver import prepare
    from ..solvers import SolverOptions
    from ..solvers.bench_report import markdown, write_all
    from ..solvers.benchmark import run_bench
    from ..solvers.config import register_user_solvers
    from ..solvers.portfolio import check_solver

    if args.repeat < 1:
        raise ConfigError(f"--repeat must be at least 1, not {args.repeat}")
    if args.jobs < 1:
        raise ConfigError(f"--jobs must be at least 1, not {args.jobs}")
    options = SolverOptions(
        timeout=args.timeout, memory_mb=args.memory, seed=args.seed, strategies=args.strategies
    )
    register_user_solvers(args.solver_cmd)
    solvers = [s.strip() for s in args.solvers.split(",") if s.strip()]
    if not solvers:
        raise ConfigError("--solvers names no solver")
    for s in solvers:
        check_solver(s)
    err = Console(stderr=True)
    prepared = prepare(args.paths, None)
    for e in prepared[1]:
        err.print(f"[yellow]not supported:[/] {e.render()}", markup=True, highlight=False)
    nvcs = sum(len(k.vcs) for k in prepared[0])
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        transient=not err.is_terminal,
    ) as progress:
        bar = progress.add_task("bench", total=nvcs * len(solvers) * args.repeat)

        def start(solver: str, r: int) -> None:
            progress.update(bar, description=f"{solver} (run {r}/{args.repeat})")

        def skip(solver: str, reason: str) -> None:
            progress.console.print(f"skipping solver {solver}: {reason}", highlight=False)
            progress.advance(bar, nvcs * args.repeat)

        result = run_bench(
            args.paths,
            solvers,
            options,
            repeat=args.repeat,
            jobs=args.jobs,
            on_start=start,
            on_vc=lambda: progress.advance(bar),
            on_skip=skip,
            prepared=prepared,
        )
    written = write_all(result, Path(args.output), options, args.repeat)
    print(markdown(result, options, args.repeat))
    for d in result.disagreements:
        print(f"hoaregpu: DISAGREEMENT: {d}", file=sys.stderr)
    print("wrote " + ", ".join(str(p) for p in written), file=sys.stderr)
    return 1 if result.disagreements else 0
