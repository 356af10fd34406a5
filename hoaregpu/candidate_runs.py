"""Candidate invariants refuted by running the kernel, before Houdini proves the rest.

A false candidate costs Houdini a solver call that runs to z3's resource limit, round after
round (`race_invariants.houdini`): on `specs/grid_tiled_loop.cu` six false guesses about the
accumulator took 70 of its 80 seconds. A run of the kernel from an admissible input checks
every candidate at every loop head (`interp.lockstep`, H-WHILE's mask: the loop's entry
mask) for free, and a candidate false at a state the program reaches is no invariant:
Houdini could never prove it, since the candidates it keeps hold together at entry and are
preserved, so they hold at every head the model reaches, and the model reaches at least
what the program does (havocs and cuts only add states).

Dropping a candidate is always sound: it only weakens what the later VCs may assume, and the
survivors are proved by Houdini and again as ordinary VCs. What a run must not do is drop a
candidate Houdini would keep (a spurious failure later), so a falsification counts only

- on an admissible input (sampled: `requires` holds), without error in the clause itself;
- while the run has met no violation but races and write conflicts. The VC generator
  assumes a clause after checking it, so past a false `assert` or loop invariant the model
  no longer contains the run's states. Write conflicts are the lockstep semantics' own
  nondeterminism (E-SASSIGN: the run picks one of the values the model allows), and races
  are checked elsewhere (the run here has no race detector).

Runs are cheap and bounded: `RUNS` seeds, open launch sizes drawn small, a step budget
scaled by the thread count. An interpreter that cannot run the kernel (a construct it
lacks) refutes nothing.
"""

from __future__ import annotations

import contextlib
import random
from typing import TYPE_CHECKING

from .core import Formula, Kernel
from .errors import HoareGpuError
from .grid import geometry
from .launch import Coord, Launch

if TYPE_CHECKING:  # the interpreter is imported when a run is made
    from .interp.results import Violation

RUNS = 2
MAX_THREADS = 4096  # larger launches are not run here
THREAD_STEPS = 4_000_000  # per run: lockstep steps times threads, at most
STEP_RANGE = (200, 20_000)  # lockstep steps per run, whatever the thread count


def refuted(kernel: Kernel, launch: Launch, candidates: dict[int, Formula]) -> set[int]:
    """The columns of the candidates in `kernel` that a run shows false (module doc)."""
    from .interp.generate import sampling_generator
    from .interp.lockstep import Checks, Lockstep, Stop
    from .interp.results import LOOP_INVARIANT, RACE, WRITE_CONFLICT

    harmless = {RACE, WRITE_CONFLICT}

    class Falsifier(Checks):
        """Checks that record the candidates found false and never stop for them."""

        found: set[int]

        def formula(self, kind: str, what: str, f: Formula, mask: list[int]) -> Violation | None:
            if kind != LOOP_INVARIANT or f.span.col not in candidates:
                return super().formula(kind, what, f, mask)
            fail = self.check(f, mask)
            if fail is not None and fail.error is None and all(v.kind in harmless for v in self.violations):
                self.found.add(f.span.col)
            return None

    rng = random.Random(0)
    out: set[int] = set()

    def draw(c: Coord) -> int:  # open sizes: a few threads, a block or two
        return rng.randint(2, 4) if not c.block else rng.randint(1, 2)

    for _ in range(RUNS):
        try:
            geo = geometry(kernel, launch, draw)
            if geo.threads > MAX_THREADS:
                return out
            state = sampling_generator(kernel, geo, rng)
            if state is None:
                continue
            steps = min(max(THREAD_STEPS // geo.threads, STEP_RANGE[0]), STEP_RANGE[1])
            checks = Falsifier(kernel, state, state.copy(), steps)
            checks.found = set()
            machine = Lockstep(kernel, state, checks, rng.randrange(2**31), steps, None)
            with contextlib.suppress(Stop):  # what was found before it stands (module doc)
                machine.run(kernel.body, list(range(state.threads)))
            out |= checks.found
        except (HoareGpuError, ValueError, ArithmeticError, RecursionError):
            continue  # not runnable here: nothing refuted
    return out
