"""Entry points: run a kernel once (`hoaregpu run`), replay a counterexample state.

`run_kernel(kernel, threads, inputs, seed, step_budget)` runs the lockstep semantics
(or, with `semantics="interleave"`, one seeded schedule of the interleaving semantics)
and checks `requires` on entry (a violation means the input is not admissible: status
`inadmissible`, nothing is run), asserts, loop invariants, `ensures` at the end, races
and write conflicts. `inputs` use the JSON format of `hoaregpu.interp.values`; with
`inputs=None` admissible inputs are sampled with the seed.

`replay(kernel, threads, initial)` runs from a complete initial `State` (e.g. a model
of a failed verification condition turned into a state by the VC side).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from ..core import Kernel
from ..launch import Geometry
from ..limits import DEFAULT_STEP_BUDGET, INTERLEAVE, LOCKSTEP
from .generate import sample_admissible
from .interleave import Interleaving
from .lockstep import Checks, Lockstep, Stop
from .races import RaceDetector
from .results import FAILED, INADMISSIBLE, OK, POSTCONDITION, PRECONDITION, RunResult, Violation
from .values import State, geometry_of, initial_state, inputs_of


def execute(
    kernel: Kernel,
    state: State,
    seed: int = 0,
    step_budget: int = DEFAULT_STEP_BUDGET,
    check_races: bool = True,
    semantics: str = LOCKSTEP,
    inputs: dict[str, Any] | None = None,
    stop_on: Callable[[Violation], bool] | None = None,
) -> RunResult:
    """Run `kernel` from `state` (updated in place) with all threads active, checking everything;
    a violation that `stop_on` selects ends the run (failed) where it happens."""
    old = state.copy()
    # The step budget also bounds the quantifier instances of clause checks (formulas.py).
    checks = Checks(kernel, state, old, step_budget, stop_on)
    shown = inputs if inputs is not None else inputs_of(kernel, old)
    result = RunResult(kernel.name, state.threads, seed, OK, shown, old, None, semantics=semantics)
    everyone = list(range(state.threads))
    try:
        for f in kernel.requires:
            if checks.formula(PRECONDITION, "precondition (requires)", f, everyone) is not None:
                result.status = INADMISSIBLE
    except Stop as stop:  # the budget ran out on `requires`
        checks.add(stop.violation)
        result.status = stop.status
    if result.status != OK:  # inadmissible, or stopped on `requires`: nothing is run
        result.violations = checks.violations
        result.notes = checks.notes
        return result
    races = RaceDetector({d.name: d.display_name for d in kernel.decls}) if check_races else None
    if semantics not in (LOCKSTEP, INTERLEAVE):
        raise ValueError(f"unknown semantics {semantics!r}")
    lock = Lockstep(kernel, state, checks, seed, step_budget, races) if semantics == LOCKSTEP else None
    inter = Interleaving(kernel, state, checks, seed, step_budget, races) if lock is None else None
    try:
        if lock is not None:
            lock.run(kernel.body, everyone)
        elif inter is not None:
            inter.run(kernel.body)
        for f in kernel.ensures:
            checks.formula(POSTCONDITION, "postcondition (ensures)", f, everyone)
        result.final = state
    except Stop as stop:
        checks.add(stop.violation)
        result.status = stop.status
    if races is not None:
        for r in races.violations:
            checks.violations.append(r)
    result.violations = checks.violations
    result.notes = checks.notes
    machine = lock or inter
    if machine is not None:
        result.steps = machine.steps
        result.thread_steps = machine.thread_steps
    if result.status == OK and result.failures:
        result.status = FAILED
    return result


def run_kernel(
    kernel: Kernel,
    threads: int | Geometry,
    inputs: Mapping[str, Any] | None = None,
    seed: int = 0,
    step_budget: int = DEFAULT_STEP_BUDGET,
    *,
    check_races: bool = True,
    semantics: str = LOCKSTEP,
) -> RunResult:
    """Run `kernel` once with `threads` threads on `inputs` (JSON format; None: sampled)."""
    if inputs is None:
        state = sample_admissible(kernel, threads, random.Random(seed))
    else:
        state = initial_state(kernel, threads, inputs)
    budget = step_budget * state.threads if semantics == INTERLEAVE else step_budget
    return execute(kernel, state, seed, budget, check_races, semantics)


def replay(
    kernel: Kernel,
    threads: int | Geometry,
    initial: State,
    seed: int = 0,
    step_budget: int = DEFAULT_STEP_BUDGET,
    *,
    check_races: bool = True,
) -> RunResult:
    """Run `kernel` in lockstep from a complete initial state (a copy; `initial` is not changed).

    The VC side builds `initial` from a solver model with `values.empty_state(kernel,
    threads)` and fills `shared[name].cells` / `.default`, `scalars[name][t]` and
    `local_arrays[name][t]`; the result says whether the model is a real failure.
    """
    if initial.geo != geometry_of(threads):
        raise ValueError(f"state is for {initial.geo.describe()}, not {geometry_of(threads).describe()}")
    return execute(kernel, initial.copy(), seed, step_budget, check_races, LOCKSTEP)
