"""One test kernel of a GPUVerify-style suite, verified in a process of its own (the runner
kills it at its time limit): `python -m hoaregpu.suite.worker FILE --timeout S --solver z3`
prints one JSON object, our verdict and why.

Verdicts: `verified`, `failed`, `unknown` (some VC undecided, or a contradictory
`requires`), or `not read` with the stage that stopped it (`unsupported`, `clang error`,
`input error`, `launch error`, `internal error`).

With `--sarif-root DIR` the object also holds `sarif`: the kernel's SARIF 2.1.0 log (its
refuted and undecided VCs, input errors and warnings; paths relative to DIR), which the
runner merges into one log for `hoaregpu suite --sarif FILE`.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from typing import Any

from ..errors import ConfigError, SpecError, UnsupportedError
from .header import read_header


def not_read(stage: str, detail: str, where: str = "") -> dict[str, Any]:
    return {"verdict": "not read", "stage": stage, "detail": detail, "where": where}


def classify_error(e: SpecError) -> dict[str, Any]:
    where = f"{e.span.line}:{e.span.col}"
    if isinstance(e, UnsupportedError):
        return not_read("unsupported", _grouped(e.construct), where)
    if e.hint == "reported by clang":
        return not_read("clang error", re.sub(r"'[^']*'", "'…'", e.message.split(" (and ")[0])[:80], where)
    return not_read("input error", re.sub(r"'[^']*'", "'…'", e.message)[:80], where)


def _grouped(construct: str) -> str:
    """`call to 'foo'` → `call to a function` (the name matters for builtins only)."""
    if construct.startswith("call to '"):
        name = construct[len("call to '") : -1]
        if not name.startswith(("atom", "__", "get_", "async", "barrier", "mem_fence")):
            return "call to a declared-only function"
    return construct[:80]


def _sarif(kernels: tuple[Any, ...], errors: tuple[SpecError, ...], root: str) -> dict[str, Any]:
    from pathlib import Path

    from ..prepared import RunResult
    from ..sarif import render_sarif

    return render_sarif(RunResult(kernels, errors), Path(root))


def verify_one(
    path: str, timeout: float, solver: str, check_races: bool = True, sarif_root: str | None = None
) -> dict[str, Any]:
    from ..driver import VerifyOptions, prepare, solve
    from ..interp.replay_cex import replay_results
    from ..solvers import SolverOptions

    with open(path, encoding="utf-8", errors="replace") as f:
        header = read_header(f.read())
    try:
        launch = header.launch()
    except ConfigError as e:
        return not_read("launch error", str(e))
    options = VerifyOptions(
        solver=solver,
        solver_options=SolverOptions(timeout=timeout),
        threads=launch,
        clang=header.clang_options(),
        check_races=check_races,
        benign_writes=header.benign_writes,
    )
    prepared, errors = prepare(
        [path], launch, options.unroll, options.clang, check_races, header.benign_writes
    )
    if errors:
        out = classify_error(errors[0])
        if sarif_root is not None:
            out["sarif"] = _sarif((), tuple(errors), sarif_root)
        return out
    results = replay_results(solve(prepared, options))
    verdicts = {k.verdict for k in results}
    vcs = sum(len(k.results) for k in results)
    verdict = "failed" if "failed" in verdicts else "verified" if verdicts <= {"verified"} else "unknown"
    failures = [
        f"{r.vc.origin.kind.value}:{r.vc.origin.span.line if r.vc.origin.span else '?'}"
        for k in results
        for r in k.results
        if r.result.outcome.name == "REFUTED"
    ]
    confirmed = any(r.replay is not None and r.replay.confirmed for k in results for r in k.results)
    missing = sum(len(k.prepared.missing_invariants) for k in results)
    sarif = {"sarif": _sarif(tuple(results), (), sarif_root)} if sarif_root is not None else {}
    return {
        **sarif,
        "verdict": verdict,
        "vcs": vcs,
        "failures": failures,
        "confirmed": confirmed,
        "vacuous": "vacuous" in verdicts,
        "loops_without_invariant": missing,
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser()
    p.add_argument("file")
    p.add_argument("--timeout", type=float, default=10.0)
    p.add_argument("--solver", default="z3")
    p.add_argument("--assume-race-free", action="store_true", help="no race VCs (as `verify`)")
    p.add_argument("--check-races", action="store_true", help="the default; accepted for old scripts")
    p.add_argument("--sarif-root", metavar="DIR", help="add the kernel's SARIF log, paths relative to DIR")
    args = p.parse_args(argv)
    try:
        out = verify_one(args.file, args.timeout, args.solver, not args.assume_race_free, args.sarif_root)
    except ConfigError as e:
        out = not_read("input error", str(e)[:80])
    except SpecError as e:
        out = classify_error(e)
        if args.sarif_root is not None:
            out["sarif"] = _sarif((), (e,), args.sarif_root)
    except Exception as e:  # a bug in hoaregpu: the point of the suite is to find them
        out = not_read("internal error", f"{type(e).__name__}: {e}"[:120])
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
