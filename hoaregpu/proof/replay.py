"""Replay: re-check a proof and compare with the solver results recorded in it (like
`why3 replay`), and rewrite those records.

A change is a regression when a side condition recorded as proved is not proved now,
when the solver's version differs from the recorded one, or when it took more than twice
as long (times under `FLOOR` seconds count as `FLOOR`: process start-up is noise).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..solvers import Outcome
from .checker import CheckResult, Side
from .derivation import Record

FLOOR = 0.25
SLOWDOWN = 2.0


@dataclass(frozen=True)
class Change:
    line: int
    which: str
    text: str
    regression: bool


def _now(s: Side) -> Record | None:
    if s.trivial:
        return Record("trivial")
    r = s.result
    if r is None or r.outcome is not Outcome.PROVED:
        return None
    return Record("proved", r.solver, r.version, r.seconds)


def compare(result: CheckResult) -> list[Change]:
    out: list[Change] = []
    for s in result.sides:
        old = s.node.side.get(s.which)
        new = _now(s)
        where = f"side-{s.which}"

        def add(text: str, regression: bool, s: Side = s, where: str = where) -> None:
            out.append(Change(s.node.line, s.which, f"{where}: {text}", regression))

        if old is None:
            if new is not None:
                add(f"no recorded result; now {new.text()}", False)
            continue
        if new is None:
            r = s.result
            what = r.outcome.value if r is not None else "not attempted"
            add(f"recorded {old.text()}; now {what}", old.status == "proved" or old.status == "trivial")
            continue
        if old.status == "trivial" or new.status == "trivial":
            if old.status != new.status:
                add(f"recorded {old.text()}; now {new.text()}", False)
            continue
        if old.solver != new.solver:
            add(f"recorded with {old.solver}, now checked with {new.solver} ({new.seconds:.3f} s)", False)
            continue
        if old.version != new.version:
            add(f"{new.solver} version changed: {old.version} -> {new.version}", True)
        if new.seconds > SLOWDOWN * max(old.seconds, FLOOR):
            add(f"slower: {old.seconds:.3f} s -> {new.seconds:.3f} s (more than {SLOWDOWN:g}x)", True)
    return out


_SIDE_LINE = re.compile(r"^\s*side-(pre|post):")
_RULE_LINE = re.compile(r"^\s*H-[A-Z]+\s*$")


def updated_text(text: str, result: CheckResult) -> str:
    """`text` with every H-CONSEQ node's side-condition records replaced by the new results."""
    lines = text.splitlines()
    by_line: dict[int, list[Side]] = {}
    for s in result.sides:
        by_line.setdefault(s.node.line, []).append(s)
    for line in sorted(by_line, reverse=True):
        start = line  # index of the first line after the rule line
        end = start
        while end < len(lines) and not _RULE_LINE.match(lines[end]):
            end += 1
        region = [x for x in lines[start:end] if not _SIDE_LINE.match(x)]
        while region and (not region[-1].strip() or region[-1].lstrip().startswith("#")):
            end -= 1
            region.pop()
        pad = " " * (len(lines[line - 1]) - len(lines[line - 1].lstrip()) + 2)
        records = []
        for s in sorted(by_line[line], key=lambda s: s.which != "pre"):
            rec = _now(s)
            if rec is not None:
                records.append(f"{pad}side-{s.which}: {rec.text()}")
        lines[start:end] = region + records
    return "\n".join(lines) + "\n"
