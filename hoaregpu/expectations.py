"""Expected verdicts recorded in spec files, and comparing results against them.

A spec's first line is `// expect: verified` or `// expect: failed KIND:LINE ...` (exactly
those VCs refuted, all others proved). Lines `// allow-unknown: SOLVER[,SOLVER] KIND:LINE
... -- reason` let the named solvers leave those VCs undecided. An allowance never
permits the opposite definitive verdict. Format: specs/README.md.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from .solvers.outcome import Outcome

Vc = tuple[str, int]  # (kind, line)

_EXPECT = re.compile(r"^//\s*expect:\s*(verified|failed)\b(.*)$")
_ALLOW = re.compile(r"^//\s*allow-unknown:\s*(\S+)\s+(.*)$")
_ITEM = re.compile(r"^([a-z-]+):(\d+)$")
DEFINITIVE = (Outcome.PROVED, Outcome.REFUTED)
PORTFOLIO_MEMBERS = ("z3", "cvc5")


@dataclass(frozen=True)
class Expectation:
    refuted: frozenset[Vc]  # empty: `verified`
    allow_unknown: Mapping[str, frozenset[Vc]] = field(default_factory=dict)

    def allowed_unknown(self, solver: str) -> frozenset[Vc]:
        """VCs the solver may leave undecided; for a portfolio, those all its members may."""
        members = PORTFOLIO_MEMBERS if solver == "portfolio" else tuple(solver.split(","))
        sets = [self.allow_unknown.get(m, frozenset()) for m in members]
        return frozenset.intersection(*sets) if sets else frozenset()


def _items(words: Sequence[str]) -> frozenset[Vc] | None:
    out = set()
    for w in words:
        m = _ITEM.match(w)
        if m is None:
            return None
        out.add((m.group(1), int(m.group(2))))
    return frozenset(out)


def parse_expectation(text: str) -> Expectation | None:
    """The expectation of a spec's text, or None when its first line is not one."""
    lines = text.splitlines()
    m = _EXPECT.match(lines[0].strip()) if lines else None
    if m is None:
        return None
    refuted = _items(m.group(2).split()) if m.group(1) == "failed" else frozenset()
    if refuted is None or (m.group(1) == "failed" and not refuted):
        return None
    allow: dict[str, frozenset[Vc]] = {}
    for line in lines[1:]:
        a = _ALLOW.match(line.strip())
        if a is None:
            continue
        items = _items(a.group(2).split(" -- ")[0].split())  # the reason follows ` -- `
        if items is None:
            return None
        for solver in a.group(1).split(","):
            allow[solver] = allow.get(solver, frozenset()) | items
    return Expectation(refuted, allow)


def read_expectation(path: str) -> Expectation | None:
    try:
        with open(path, encoding="utf-8") as f:
            return parse_expectation(f.read())
    except (OSError, UnicodeDecodeError):
        return None


def combined(outcomes: Sequence[tuple[str, int, Outcome]]) -> list[tuple[str, int, Outcome]]:
    """One outcome per (kind, line): a clause can make several VCs (a loop condition's check on
    entry and after each iteration, a device function inlined twice, a loop unrolled), and the
    clause is refuted when one of them is, proved when all are, undecided otherwise."""
    by_vc: dict[Vc, list[Outcome]] = {}
    for kind, line, outcome in outcomes:
        by_vc.setdefault((kind, line), []).append(outcome)
    out = []
    for (kind, line), found in by_vc.items():
        if Outcome.REFUTED in found:
            outcome = Outcome.REFUTED
        else:
            outcome = next((o for o in found if o is not Outcome.PROVED), Outcome.PROVED)
        out.append((kind, line, outcome))
    return out


def mismatches(
    exp: Expectation,
    outcomes: Sequence[tuple[str, int, Outcome]],
    solver: str,
    violated: Iterable[tuple[str, int]] = (),
) -> list[str]:
    """Why `outcomes` (kind, line, outcome per VC) do not meet `exp`; empty when they do.

    `violated`: the clauses (kind, line) that a run of the kernel violated where the solver
    was undecided (`VcResult.violated_by_run`). Such a clause is shown false, and the kernel
    fails: it meets an expected failure, and is a mismatch where the clause is expected to
    hold (an allow-unknown line excuses the solver, not a clause shown false)."""
    outcomes = combined(outcomes)
    shown_false = set(violated)
    seen = {(kind, line) for kind, line, _ in outcomes}
    out = [f"no {kind} VC at line {line}" for kind, line in sorted(exp.refuted - seen)]
    allowed = exp.allowed_unknown(solver)
    for kind, line, outcome in outcomes:
        want = Outcome.REFUTED if (kind, line) in exp.refuted else Outcome.PROVED
        if outcome is want:
            continue
        if outcome not in DEFINITIVE and (kind, line) in shown_false:
            if want is Outcome.PROVED:
                out.append(f"a run violates {kind}:{line}, expected proved")
            continue
        if outcome in DEFINITIVE:
            out.append(f"{kind}:{line} {outcome.value}, expected {want.value}")
        elif (kind, line) not in allowed:
            out.append(
                f"{kind}:{line} {outcome.value}, expected {want.value} (no allow-unknown for {solver})"
            )
    return out


def classify(exp: Expectation, outcomes: Sequence[tuple[str, int, Outcome]]) -> str:
    """ESBMC-GPU Table I class of one file's outcomes: a wrong answer beats undecided."""
    undecided = False
    for kind, line, outcome in combined(outcomes):
        want = Outcome.REFUTED if (kind, line) in exp.refuted else Outcome.PROVED
        if outcome in DEFINITIVE and outcome is not want:
            return "wrong answers"
        undecided |= outcome not in DEFINITIVE
    if undecided:
        return "unknown/timeout"
    return "bugs found" if exp.refuted else "verified correctly"
