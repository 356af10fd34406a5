"""Candidate invariants refuted by running the kernel, before Houdini proves the rest.

A false candidate costs Houdini a solver call that runs to z3's resource limit, round after
round (`race_invariants.houdini`): on `specs/grid_tiled_loop.cu` six false guesses about the
accumulator took 70 of its 80 seconds. A run of the kernel from an admissible input checks
the candidates at its loop heads (`interp.falsify`, over H-WHILE's mask: the loop's entry
mask) in milliseconds, and a candidate false at a state the program reaches is no invariant:
Houdini could never prove it, since the candidates it keeps hold together at entry and are
preserved, so they hold at every head the model reaches, and the model reaches at least
what the program does (havocs and cuts only add states).

Dropping a candidate is always sound: it only weakens what the later VCs may assume, and the
survivors are proved by Houdini and again as ordinary VCs. What a run must not do is drop a
candidate Houdini would keep (a spurious failure later), so a falsification counts only

- on an admissible input (`requires` holds), without error in the clause itself;
- while the run has met no violation but races and write conflicts. The VC generator
  assumes a clause after checking it, so past a false `assert` or loop invariant the model
  no longer contains the run's states. Write conflicts are the lockstep semantics' own
  nondeterminism (E-SASSIGN: the run picks one of the values the model allows), and races
  are checked elsewhere (the run here has no race detector). A call runs its body, and a
  contract's `requires` and `ensures` are checked around it (a violation stops the
  falsifications), so the run stays inside the VCs' model of calls too.

Runs are cheap and bounded: two, open launch sizes drawn small (and a warp or two wide in the
second), inputs sampled or, when sampling misses `requires`, from a z3 model of it
(`interp.solver_inputs.AutoInputs`), a step budget scaled by the thread count. A run that
cannot be made (a construct the interpreter lacks, any error of its own) refutes nothing: like the replay of
counterexamples, it is a shortcut and never breaks `verify`.
"""

from __future__ import annotations

import contextlib
import random

from .core import Formula, Kernel
from .grid import geometry
from .launch import THREAD_X, Coord, Launch

MAX_THREADS = 1024  # larger launches are not run here (a check of every assert at 4,096
# threads took 0.2 s a step)
THREAD_STEPS = 50_000  # per run: lockstep steps times threads, at most (about 0.5 s)
STEP_RANGE = (20, 1_000)  # lockstep steps per run, whatever the thread count


def refuted(kernel: Kernel, launch: Launch, candidates: dict[int, Formula]) -> set[int]:
    """The columns of the candidates in `kernel` that a run shows false (module doc)."""
    from .interp.falsify import Falsifier, SampledHeads
    from .interp.lockstep import Stop
    from .interp.solver_inputs import AutoInputs

    rng = random.Random(0)
    out: set[int] = set()

    inputs = AutoInputs()
    for wide in (False, True):
        # open sizes: a few threads, then a warp or more (strides like `blockDim.x / 32`
        # are 0 below 32); a block or two
        def draw(c: Coord, wide: bool = wide) -> int:
            if c.block:
                return rng.randint(1, 2)
            return rng.choice((32, 64)) if wide and c == THREAD_X else rng.randint(2, 4)

        try:
            geo = geometry(kernel, launch, draw)
            if geo.threads > MAX_THREADS:
                continue
            state = inputs(kernel, geo, rng)  # sampled; from a z3 model when sampling misses
            if state is None:
                continue
            steps = min(max(THREAD_STEPS // geo.threads, STEP_RANGE[0]), STEP_RANGE[1])
            checks = Falsifier(kernel, state, state.copy(), steps)
            checks.candidates, checks.found = frozenset(candidates), set()
            machine = SampledHeads(kernel, state, checks, rng.randrange(2**31), steps, None)
            with contextlib.suppress(Stop):  # what was found before it stands (module doc)
                machine.run(kernel.body, list(range(state.threads)))
            out |= checks.found
        except Exception:  # not runnable here: nothing refuted (a shortcut must never break `verify`)
            continue
    return out
