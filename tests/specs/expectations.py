"""Reading the expected verdicts that specs carry on their first lines (specs/README.md)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

SPECS = Path(__file__).resolve().parents[2] / "specs"
_ITEM = re.compile(r"^([a-z-]+):(\d+)$")

Vc = tuple[str, int]  # (kind, line)


@dataclass(frozen=True)
class Expectation:
    path: Path
    refuted: frozenset[Vc]  # empty for `verified`
    allow_unknown: dict[str, frozenset[Vc]] = field(default_factory=dict)  # per solver

    def allowed_unknown(self, solver: str) -> frozenset[Vc]:
        return self.allow_unknown.get(solver, frozenset())


def _items(words: list[str], path: Path) -> frozenset[Vc]:
    out = set()
    for w in words:
        m = _ITEM.match(w)
        if m is None:
            raise ValueError(f"{path}: bad KIND:LINE item {w!r}")
        out.add((m.group(1), int(m.group(2))))
    return frozenset(out)


def read_expectation(path: Path) -> Expectation:
    lines = path.read_text().splitlines()
    head = lines[0]
    if head == "// expect: verified":
        refuted: frozenset[Vc] = frozenset()
    elif head.startswith("// expect: failed "):
        refuted = _items(head.removeprefix("// expect: failed ").split(), path)
    else:
        raise ValueError(f"{path}: first line must be an expectation, not {head!r}")
    allow: dict[str, frozenset[Vc]] = {}
    for line in lines[1:]:
        if not line.startswith("// allow-unknown: "):
            continue
        body = line.removeprefix("// allow-unknown: ").split(" -- ")[0].split()
        for solver in body[0].split(","):
            allow[solver] = allow.get(solver, frozenset()) | _items(body[1:], path)
    return Expectation(path, refuted, allow)


def all_expectations() -> list[Expectation]:
    return [read_expectation(p) for p in sorted(SPECS.glob("*.cu"))]
