"""Portfolios: several backends on one VC, and `--confirm`, which needs two of them to agree.

A solver name is a portfolio when it is `portfolio` (= z3,cvc5) or a comma-separated
list of backend names (`z3,cvc5-bin,mine`). `dispatch.solve_many` starts one worker per
member (still at most `jobs` workers at a time).

Without `confirm`, the first PROVED or REFUTED answer settles the VC and the other
members are killed; one solver's proof is believed. Two members that answer PROVED and
REFUTED for the same VC (both before the kill) are a disagreement: an ERROR naming both,
never resolved silently. A refutation counts only after its model has been checked
against the VC (`modelcheck`, in the member's worker), so a member whose counterexample
is wrong gives an ERROR, and the other members race on.

With `confirm`, every member runs to its end. The VC is PROVED only when members of two
different solver families prove it (z3 and z3-bin are one family, cvc4 and cvc5 another,
see `Backend.family`); any PROVED next to a REFUTED is a disagreement, whatever the order
of the answers; a single proof leaves the VC UNKNOWN, with the reason. When no member
decides, the most informative undecided answer is reported (unknown with a reason before
timeout before error).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

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


PARTNERS = ("z3", "cvc5", "z3-bin", "cvc5-bin", "cvc4-bin")
"""Where `--confirm` looks, in this order, for a second solver when the chosen ones are all of
one family: the first available one of another family joins."""


def family(name: str) -> str:
    """Solvers of one family share code (and bugs): two proofs from one family are one proof."""
    return get_backend(name).family()


def confirm_members(solver: str) -> tuple[str, ...]:
    """The members for `--confirm`: the chosen ones, plus the first available partner of
    another family when they are all of one. Without one, the chosen ones alone (and
    then nothing can be proved: `combine` says why)."""
    names = check_solver(solver)
    families = {family(n) for n in names}
    if len(families) >= 2 or any("=" in n for n in names):  # an inline NAME=COMMAND joins no list
        return names
    for partner in PARTNERS:
        fits = partner not in names and family(partner) not in families
        if fits and get_backend(partner).unavailable() is None:
            return (*names, partner)
    return names


def combine(
    solver: str, results: Mapping[str, SolverResult], seconds: float, *, confirm: bool = False
) -> SolverResult:
    """One result for a task from its members' results (those that answered).

    `results` maps member names to what they said, in the order they answered."""
    proved = [n for n, r in results.items() if r.outcome is Outcome.PROVED]
    refuted = [n for n, r in results.items() if r.outcome is Outcome.REFUTED]
    if proved and refuted:
        checked = [n for n in refuted if results[n].model_checked]
        why = (
            f"{', '.join(checked)}'s counterexample satisfies the VC, so the proof is suspect"
            if checked
            else "a solver bug or an unsound encoding"
        )
        return SolverResult(
            outcome=Outcome.ERROR,
            solver=solver,
            seconds=seconds,
            message=(
                f"solvers disagree: {', '.join(proved)} proved the VC valid, "
                f"{', '.join(refuted)} refuted it ({why})"
            ),
            version=_versions(results),
        )
    if confirm and proved and not refuted:
        if len({family(n) for n in proved}) >= 2:
            version = _versions({n: results[n] for n in proved})
            cached = all(results[n].cached for n in proved)
            return SolverResult(Outcome.PROVED, "+".join(proved), seconds, version=version, cached=cached)
        others = [f"{n}: {r.outcome.value} ({r.message})" for n, r in results.items() if n not in proved]
        if len(proved) > 1:
            what = f"{' and '.join(proved)} proved the VC, but they are one solver family"
        else:
            what = f"only {proved[0]} proved the VC"
        rest = "; ".join(others) if others else "no second solver was available"
        message = f"not confirmed: {what}, and --confirm needs proofs from two different solvers ({rest})"
        # A member that failed (say, with a counterexample that its model does not satisfy) is
        # a solver gone wrong: worth an error, though undecided either way.
        failed = any(r.outcome is Outcome.ERROR for r in results.values())
        outcome = Outcome.ERROR if failed else Outcome.UNKNOWN
        return SolverResult(outcome, solver, seconds, message=message, version=_versions(results))
    winner = next((r for r in results.values() if r.outcome in DEFINITIVE), None)
    if refuted:  # a counterexample checked against the VC is the best to show
        winner = next((results[n] for n in refuted if results[n].model_checked), results[refuted[0]])
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
    return replace(r, seconds=seconds)
