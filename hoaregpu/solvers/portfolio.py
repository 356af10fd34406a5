"""Portfolios: several backends race on one VC; the first definitive answer wins.

A solver name is a portfolio when it is `portfolio` (= z3,cvc5) or a comma-separated
list of backend names (`z3,cvc5-bin,mine`). `dispatch.solve_many` starts one worker per
member (still at most `jobs` workers at a time), takes the first PROVED or REFUTED
answer and kills the other members. Two members that answer PROVED and REFUTED for
the same VC (both before the kill) are a disagreement: an ERROR outcome naming both,
never resolved silently. When no member decides, the most informative undecided
answer is reported (unknown with a reason before timeout before error).
"""

from __future__ import annotations

from collections.abc import Mapping

from hoaregpu.errors import ConfigError
from hoaregpu.solvers.outcome import Outcome, SolverResult
from hoaregpu.solvers.registry import get_backend

DEFAULT_PORTFOLIO = ("z3", "cvc5")
DEFINITIVE = frozenset({Outcome.PROVED, Outcome.REFUTED})
_UNDECIDED_RANK = {Outcome.UNKNOWN: 0, Outcome.TIMEOUT: 1, Outcome.ERROR: 2}


def members(solver: str) -> tuple[str, ...]:
    """The backends a solver name stands for: one for a plain name, several for a portfolio."""
    if solver == "portfolio":
        return DEFAULT_PORTFOLIO
    if "," not in solver or "=" in solver:  # NAME=COMMAND may contain commas in its command
        return (solver,)
    names = tuple(n.strip() for n in solver.split(","))
    if any(not n for n in names):
        raise ConfigError(f"empty solver name in {solver!r}")
    if len(set(names)) != len(names):
        raise ConfigError(f"solver named twice in portfolio {solver!r}")
    if "portfolio" in names:
        raise ConfigError(f"'portfolio' cannot be a member of {solver!r}; list its solvers instead")
    return names


def is_portfolio(solver: str) -> bool:
    return len(members(solver)) > 1


def check_solver(solver: str) -> tuple[str, ...]:
    """Resolve every member now (ConfigError listing the valid names for an unknown one)."""
    names = members(solver)
    for name in names:
        get_backend(name)
    return names


def combine(solver: str, results: Mapping[str, SolverResult], seconds: float) -> SolverResult:
    """One result for a portfolio task from its members' results (those that answered).

    `results` maps member names to what they said, in the order they answered."""
    proved = [n for n, r in results.items() if r.outcome is Outcome.PROVED]
    refuted = [n for n, r in results.items() if r.outcome is Outcome.REFUTED]
    if proved and refuted:
        return SolverResult(
            outcome=Outcome.ERROR,
            solver=solver,
            seconds=seconds,
            message=(
                f"solvers disagree: {', '.join(proved)} proved the VC valid, "
                f"{', '.join(refuted)} refuted it (a solver bug or an unsound encoding)"
            ),
            version=_versions(results),
        )
    winner = next((r for r in results.values() if r.outcome in DEFINITIVE), None)
    if winner is not None:
        return _with_seconds(winner, seconds)
    if not results:
        return SolverResult(Outcome.ERROR, solver, seconds, message="no portfolio member answered")
    order = list(results)
    best_name = min(order, key=lambda n: (_UNDECIDED_RANK.get(results[n].outcome, 3), order.index(n)))
    best = results[best_name]
    others = [f"{n}: {r.outcome.value} ({r.message})" for n, r in results.items() if n != best_name]
    message = best.message + (f"; also {'; '.join(others)}" if others else "")
    return SolverResult(best.outcome, best.solver, seconds, message=message, version=best.version)


def _versions(results: Mapping[str, SolverResult]) -> str:
    return ",".join(f"{n} {r.version}".strip() for n, r in results.items())


def _with_seconds(r: SolverResult, seconds: float) -> SolverResult:
    return SolverResult(r.outcome, r.solver, seconds, r.values, r.message, r.version, r.cached)
