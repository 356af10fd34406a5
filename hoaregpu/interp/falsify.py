"""A run that looks for false candidate invariants (`hoaregpu.candidate_runs` is the policy).

`Falsifier` records the candidates found false at a loop head and never stops the run for
them; a falsification counts only while the run has met no violation but races and write
conflicts (why: `candidate_runs`). `SampledHeads` checks a loop's invariants at some of its
heads, not all: the first four, then every power-of-two-th, and always the last (where the
guard fails, the counter's final value: `i <= n` of a stride that overshoots). A check
evaluates every clause at every thread it looks at, which costs far more than the step it
rides on (a loop of 143 iterations on 64 threads spent 3.8 s in checks), so on a large mask
a candidate is checked at some of its threads (`_sample`)."""

from __future__ import annotations

from ..core import Formula, While
from .lockstep import Checks, Lockstep
from .results import LOOP_INVARIANT, RACE, WRITE_CONFLICT, Violation

HARMLESS = frozenset({RACE, WRITE_CONFLICT})
EDGE = 32  # a candidate is checked at the first and last EDGE threads of the mask ...
SPREAD = 64  # ... and at SPREAD threads evenly between


def _sample(mask: list[int]) -> list[int]:
    """The threads of `mask` a candidate is checked at. A clause false at one of them is false
    over the mask (a thread's value does not depend on the others being checked), and
    checking every thread of a 4,096-thread launch took seconds per head."""
    if len(mask) <= 2 * EDGE + SPREAD:
        return mask
    middle = mask[EDGE:-EDGE]
    step = len(middle) / SPREAD
    return [*mask[:EDGE], *(middle[int(i * step)] for i in range(SPREAD)), *mask[-EDGE:]]


class Falsifier(Checks):
    """Checks that collect the candidates (by span column) found false in `found`."""

    candidates: frozenset[int] = frozenset()
    found: set[int]

    def formula(self, kind: str, what: str, f: Formula, mask: list[int]) -> Violation | None:
        col = f.span.col
        if kind != LOOP_INVARIANT or col not in self.candidates:
            return super().formula(kind, what, f, mask)
        if col in self.found:
            return None
        fail = self.check(f, _sample(mask))
        if fail is not None and fail.error is None and all(v.kind in HARMLESS for v in self.violations):
            self.found.add(col)
        return None


class SampledHeads(Lockstep):
    """Lockstep with the loop invariants checked at sampled heads (module doc)."""

    def loop(self, s: While, mask: list[int]) -> None:
        guard = self.expr(s.cond)
        active = mask
        visit = 0
        while True:
            self._step(active, s.span)
            gv = guard(self.ctx, active)
            going = [t for t, v in zip(active, gv, strict=True) if v]
            if visit < 4 or visit & (visit - 1) == 0 or not going:
                for inv in s.invariants:
                    self.checks.formula(LOOP_INVARIANT, "loop invariant", inv, mask)
            if not going:
                return
            active = going
            self._run(s.body, active)
            visit += 1
