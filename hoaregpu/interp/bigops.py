"""Evaluating ACSL aggregates (`\\sum`, `\\product`, `\\numof`, `\\max`, `\\min`) on a
concrete state: exactly, over their explicit range, every cell charged to the checker's
budget (`formulas.FormulaChecker`). Mathematical integers, as in the prover (`smt.sums`).

A range longer than `MAX_RANGE` cells, or an empty range of `\\max`/`\\min` (defined only
for `lo <= hi`), is an evaluation error that names the aggregate, not a guess.
"""

from __future__ import annotations

from collections.abc import Callable

from ..terms import AggKind, Aggregate
from .evaluate import EvalError

MAX_RANGE = 1_000_000


def evaluate(
    agg: Aggregate, low: int, high: int, cell: Callable[[int], int], charge: Callable[[int], None]
) -> int:
    """The aggregate of `cell(k)` for k in low..high (`charge` is called with the length first)."""
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
