"""Random inputs that satisfy `requires`, by sampling (rejection).

`sample_state` draws small values for every parameter: scalars mostly in
[-2, 2N + 4] (>= 0 for unsigned ones) with a bias towards 0, 1, N - 1, N, N + 1;
1-D arrays as cells 0..L-1 with L around the largest scalar / N; n-D arrays as small
boxes; values in [-VALUE, VALUE], sometimes all non-negative, sometimes sorted.
`sample_admissible` retries until every `requires` holds (`admissible`).

Hook for solver-based generation: anything with the signature of `InputGenerator`
(`(kernel, threads, rng) -> State | None`, None meaning "no admissible input found")
can be passed to `test_kernel(..., generator=...)`; the VC side can build the State
from a model of `requires` with `values.empty_state` as described in `run.replay`.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable

from ..core import Kernel, VarKind
from ..launch import Geometry
from .formulas import FormulaChecker
from .values import Array, State, empty_state

VALUE = 9
SPECIAL_FLOATS = (float("nan"), float("inf"), float("-inf"), -0.0, 0.5, -1.25)
ATTEMPTS = 200

InputGenerator = Callable[[Kernel, "int | Geometry", random.Random], "State | None"]


def _scalar(rng: random.Random, threads: int, nonneg: bool) -> int:
    if rng.random() < 0.4:
        v = rng.choice([0, 1, 2, threads - 1, threads, threads + 1, 2 * threads])
    else:
        v = rng.randint(-2, 2 * threads + 4)
    return max(v, 0) if nonneg else v


def _values(rng: random.Random, count: int, scale: int) -> list[int]:
    mode = rng.random()
    if mode < 0.3:
        vals = [rng.randint(0, scale) for _ in range(count)]
    elif mode < 0.45:
        vals = sorted(rng.randint(-scale, scale) for _ in range(count))
    elif mode < 0.55:
        vals = [rng.randint(0, 1) for _ in range(count)]
    else:
        vals = [rng.randint(-scale, scale) for _ in range(count)]
    return vals


def sample_state(kernel: Kernel, launch: int | Geometry, rng: random.Random, scale: int = VALUE) -> State:
    state = empty_state(kernel, launch)
    threads = state.threads
    scalars: list[int] = []
    for p in kernel.params:
        d = kernel.decl(p)
        if d.dim == 0:
            # a `bool` holds 0 or 1 (an entry fact of the VC generator; run rejects others)
            v = rng.randint(0, 1) if d.boolean else _scalar(rng, threads, d.nonnegative)
            scalars.append(v)
            if d.kind is VarKind.LOCAL:
                state.scalars[p] = [v] * threads
            else:  # a uniform scalar parameter encoded as a shared constant
                state.shared[p] = Array({(): v})
    hint = max([threads, *scalars])
    for p in kernel.params:
        d = kernel.decl(p)
        if d.dim == 0:
            continue
        if d.dim == 1:
            length = max(0, rng.choice([hint, hint + 1, threads, rng.randint(0, 2 * hint + 2)]))
            shape: list[int] = [length]
        else:
            shape = [rng.randint(1, max(2, threads + 1)) for _ in range(d.dim)]
        keys = list(itertools.product(*(range(s) for s in shape)))
        vals = _values(rng, len(keys), scale)
        if d.boolean or d.nonnegative:  # the cells' C type: bool 0/1, unsigned >= 0
            vals = [(v % 2 if d.boolean else abs(v)) for v in vals]
        if d.floating and rng.random() < 0.5:  # floats: sometimes NaN, infinities, -0.0, fractions
            vals = [rng.choice(SPECIAL_FLOATS) if rng.random() < 0.3 else v for v in vals]  # type: ignore[misc]
        arr = Array(dict(zip(keys, vals, strict=True)))
        if d.kind is VarKind.SHARED:
            state.shared[p] = arr
        else:
            state.local_arrays[p] = [arr.copy() for _ in range(threads)]
    return state


def admissible(kernel: Kernel, state: State, notes: list[str] | None = None) -> bool:
    """Whether every `requires` holds in `state` (at every thread)."""
    checker = FormulaChecker(kernel, state, state, notes if notes is not None else [])
    everyone = list(range(state.threads))
    return all(checker.check(f, everyone) is None for f in kernel.requires)


def sample_admissible(
    kernel: Kernel, threads: int | Geometry, rng: random.Random, attempts: int = ATTEMPTS
) -> State:
    """An admissible sampled state, or the last sample tried (then `run` reports it inadmissible)."""
    state = sample_state(kernel, threads, rng)
    for _ in range(attempts - 1):
        if admissible(kernel, state):
            return state
        state = sample_state(kernel, threads, rng)
    return state


def sampling_generator(kernel: Kernel, threads: int | Geometry, rng: random.Random) -> State | None:
    """The default `InputGenerator`: rejection sampling, None when nothing admissible was found."""
    for _ in range(ATTEMPTS):
        state = sample_state(kernel, threads, rng)
        if admissible(kernel, state):
            return state
    return None
