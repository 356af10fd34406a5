"""What a VC is for: its kind, the one message table, and its origin in the source."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from ..errors import Span


class VcKind(Enum):
    POSTCONDITION = "postcondition"
    LOOP_INVARIANT_ENTRY = "loop-invariant-entry"
    LOOP_INVARIANT_PRESERVED = "loop-invariant-preserved"
    BARRIER_DIVERGENCE = "barrier-divergence"
    ASSERTION = "assertion"
    UNSIGNED_WRAP = "unsigned-wrap"
    NARROWING = "narrowing"
    CALL_PRECONDITION = "call-precondition"
    INDEX_BOUNDS = "index-bounds"
    DATA_RACE = "data-race"
    BARRIER_INVARIANT = "barrier-invariant"


MESSAGES: dict[VcKind, str] = {
    VcKind.POSTCONDITION: "postcondition might not hold",
    VcKind.LOOP_INVARIANT_ENTRY: "loop invariant might not hold on entry",
    VcKind.LOOP_INVARIANT_PRESERVED: "loop invariant might not be preserved",
    VcKind.BARRIER_DIVERGENCE: "barrier might be reached by some but not all threads",
    VcKind.ASSERTION: "assertion might not hold",
    VcKind.UNSIGNED_WRAP: "value might be negative where C computes it as unsigned (C wraps it around)",
    VcKind.NARROWING: "value might not fit the narrow type it is stored in (C truncates it)",
    VcKind.CALL_PRECONDITION: "the called device function's precondition might not hold",
    VcKind.INDEX_BOUNDS: "index might leave its row of the array (C would reach another row)",
    VcKind.DATA_RACE: "data race: another thread might access this memory cell, one of the two a write, "
    "with no barrier between",
    VcKind.BARRIER_INVARIANT: "barrier invariant might not hold at the barrier",
}


@dataclass(frozen=True)
class Origin:
    """Where a VC comes from: its kind, the clause or statement, and the rule that made it."""

    kind: VcKind
    span: Span
    rule: str

    @property
    def message(self) -> str:
        return MESSAGES[self.kind]
