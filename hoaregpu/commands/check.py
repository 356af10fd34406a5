"""`hoaregpu check PROOF...`: check derivations (proofs/*.proof); `--replay` compares
with the recorded solver results."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import ConfigError
from .common import EXIT_CODES, add_solver_options, solver_options

if TYPE_CHECKING:
    from ..proof.checker import CheckResult


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
    p.set_defaults(func=run)


def proof_files(paths: list[str]) -> list[str]:
    out: list[str] = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            out.extend(str(f) for f in sorted(path.rglob("*.proof")))
        elif path.is_file():
            out.append(str(path))
        else:
            raise ConfigError(f"no such file or folder: {p}")
    return out


def check_file(path: str, args: argparse.Namespace, solvers: list[str]) -> CheckResult:
    from ..proof.checker import CheckResult, Problem, check_proof
    from ..proof.derivation import ProofFormatError, read_proof

    try:
        proof = read_proof(path)
    except ProofFormatError as e:
        return CheckResult(path, "?", [Problem("input", e.message, e.line)])
    return check_proof(proof, solvers, solver_options(args), jobs=args.jobs, recorded=args.replay)


def run(args: argparse.Namespace) -> int:
    # the pipeline is imported here, not at the top: `hoaregpu --help` must start fast
    from ..proof.replay import compare, updated_text
    from ..solvers import get_backend

    solvers = [x.strip() for x in args.solver.split(",") if x.strip()]
    for name in solvers:
        get_backend(name)
    files = proof_files(args.paths)
    worst = 0
    regressed = False
    for path in files:
        result = check_file(path, args, solvers)
        print(result.render())
        for p in result.problems[1:]:
            print(f"  also {path}:{p.line}: {p.rule + ': ' if p.rule else ''}{p.kind}: {p.reason}")
        worst = max(worst, result.exit_code)
        if args.replay and result.exit_code == 0:
            for c in compare(result):
                mark = "regression" if c.regression else "note"
                print(f"  {path}:{c.line}: {mark}: {c.text}")
                regressed |= c.regression
        if args.update and result.exit_code == 0:
            with open(path, encoding="utf-8") as f:
                text = f.read()
            with open(path, "w", encoding="utf-8") as f:
                f.write(updated_text(text, result))
    if args.replay:
        print(f"replay: {len(files)} proofs, {'regressions found' if regressed else 'nothing regressed'}")
        if regressed and worst == 0:
            worst = 2
    return worst
