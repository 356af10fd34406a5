"""Evaluating ACSL aggregates (`\\sum`, `\\product`, `\\numof`, `\\max`, `\\min`) on a
concrete state: exactly, over their explicit range, every cell charged to the checker's
budget (`formulas.FormulaChecker`). Mathematical integers, as in the prover (`smt.sums`).

A range longer than `MAX_RANGE` cells, or an empty range of `\\max`/`\\min` (defined only
for `lo <= hi`), is an evaluation error that names the aggregate, not a guess.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ..terms import AggKind, Aggregate
from .evaluate import EvalError

MAX_RANGE = 1_000_000


@dataclass
class Prefix:
    """Running sums of one `\\sum`/`\\numof` body over one state (cells start..start+len-1):
    a scan's invariant asks for ~N overlapping ranges per check, each then O(1) after its
    cells were evaluated once. Valid while the state does not change (one clause check)."""

    start: int = 0
    sums: list[int] = field(default_factory=lambda: [0])  # sums[i]: cells start..start+i-1

    def total(self, low: int, high: int, cell: Callable[[int], int], charge: Callable[[int], None]) -> int:
        if len(self.sums) == 1:
            self.start = low
        if low < self.start:  # extend downwards: recompute from `low`
            old_start, old = self.start, self.sums
            charge(old_start - low)
            values = [cell(k) for k in range(low, old_start)]
            self.start, self.sums = low, [0]
            for v in values:
                self.sums.append(self.sums[-1] + v)
            base = self.sums[-1]
            self.sums += [base + s for s in old[1:]]
        end = self.start + len(self.sums) - 1  # first cell not yet summed
        if high >= end:
            charge(high - end + 1)
            for k in range(end, high + 1):
                self.sums.append(self.sums[-1] + cell(k))
        return self.sums[high - self.start + 1] - self.sums[low - self.start]


def evaluate(
    agg: Aggregate,
    low: int,
    high: int,
    cell: Callable[[int], int],
    charge: Callable[[int], None],
    prefix: Prefix | None = None,
) -> int:
    """The aggregate of `cell(k)` for k in low..high (`charge` is called with the length first;
    with `prefix`, a `\\sum`/`\\numof` is answered from running sums and charged only the
    cells evaluated anew)."""
    count = max(0, high - low + 1)
    name = agg.kind.value
    if count > MAX_RANGE:
        raise EvalError(
            f"{name}({low}, {high}, ...) ranges over {count} values, more than the interpreter "
            f"evaluates ({MAX_RANGE})",
            agg.span,
        )
    if count == 0 and agg.kind in (AggKind.MAX, AggKind.MIN):
        raise EvalError(
            f"{name}({low}, {high}, ...) of an empty range is undefined (it needs lo <= hi)", agg.span
        )
    if prefix is not None and agg.kind in (AggKind.SUM, AggKind.NUMOF):
        if count == 0:
            return 0
        counted = cell if agg.kind is AggKind.SUM else (lambda k: 1 if cell(k) != 0 else 0)
        return prefix.total(low, high, counted, charge)
    charge(count)
    values = (cell(k) for k in range(low, high + 1))
    if agg.kind is AggKind.SUM:
        return sum(values)
    if agg.kind is AggKind.NUMOF:
        return sum(1 for v in values if v != 0)
    if agg.kind is AggKind.PRODUCT:
        out = 1
        for v in values:
            out *= v
        return out
    return max(values) if agg.kind is AggKind.MAX else min(values)
