"""Running the calls the verifier does not look into (`core.Opaque` with `atomic` or
`declared_only`), in both interpreters.

- An atomic is one indivisible read-modify-write per active thread: lockstep runs the
  active threads' steps one after another in a seeded order (CUDA does not specify one),
  the interleaving semantics runs one thread's step when the schedule picks it. Each step
  evaluates `hoaregpu.atomics.new_value` on the cell as the previous steps left it, and the
  thread's result is the old value. Atomic accesses are not races: the race detector does
  not see them.
- A function declared without a body returns, at each active thread, a value drawn by the
  seeded RNG (small, in its type's range: reproducible with `--seed`), and leaves memory
  as it is (one of the behaviours the verifier allows).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..atomics import new_value
from ..core import Opaque, VarKind
from ..terms import Term, Var

if TYPE_CHECKING:
    from .lockstep import Machine

DRAW = 4  # arbitrary values lie in [-DRAW, DRAW] (fewer for unsigned and bool)


def _terms(machine: Machine, s: Opaque) -> tuple[Term, Term]:
    """The cell read and the value stored, built once per statement (compiled expressions are
    cached by node)."""
    hit = machine.atomic_terms.get(id(s))
    if hit is None:
        a = s.atomic
        assert a is not None
        cell = Var(a.target, a.indices, s.span)
        hit = (cell, new_value(a.op, cell, a.operands, a.bits, a.floating, s.span))
        machine.atomic_terms[id(s)] = hit
    return hit


def atomic_step(machine: Machine, s: Opaque, t: int) -> None:
    a = s.atomic
    assert a is not None
    ctx = machine.ctx
    races, ctx.races = ctx.races, None  # atomics are not races
    try:
        cell, value = _terms(machine, s)
        key = tuple(machine.expr(i)(ctx, [t])[0] for i in a.indices)
        old = machine.expr(cell)(ctx, [t])[0]
        new = machine.expr(value)(ctx, [t])[0]
    finally:
        ctx.races = races
    machine.state.shared[a.target].cells[key] = new
    machine.state.scalars[a.result][t] = old


def draw(machine: Machine, s: Opaque, mask: list[int]) -> None:
    """Arbitrary values for the scalar locals a declared-only function's call returns into."""
    for name in s.havoc:
        d = machine.kernel.decl(name)
        if d.kind is not VarKind.LOCAL or d.dim:
            continue  # memory and local arrays: kept as they are
        col = machine.state.scalars[name]
        for t in mask:
            v: Any  # an int, or a float for a float variable (held as a Python float)
            if d.boolean:
                v = machine.rng.randint(0, 1)
            elif d.floating:  # the interpreters hold floats as Python floats (interp/floats.py)
                v = machine.rng.randint(-4 * DRAW, 4 * DRAW) / 4
            else:
                v = machine.rng.randint(0 if d.nonnegative else -DRAW, DRAW)
            col[t] = v


def run_call(machine: Machine, s: Opaque, mask: list[int]) -> bool:
    """Run `s` if it is an atomic or a declared-only call (True), else leave it (False)."""
    if s.atomic is not None:
        order = list(mask)
        machine.rng.shuffle(order)
        for t in order:
            atomic_step(machine, s, t)
        return True
    if s.declared_only:
        draw(machine, s, mask)
        return True
    return False
