"""Admissible inputs from z3 models of `requires`, for when rejection sampling rarely hits.

`SolverInputs` is an `InputGenerator` (see `generate`): per thread count it encodes the
kernel's entry facts and `requires` with `hoaregpu.smt.encode.Encoder` (in a pySMT
environment of its own, `ntid` fixed) and keeps a z3 solver. Each call draws a random
sample (`generate.sample_state`) and asks for a model that agrees with as much of it as
possible: every scalar parameter and sampled array cell is an assumption, and the ones in
an unsat core are dropped until the rest is satisfiable. The random targets make the
models diverse. A shared array is the model's function itself (its entries, and its else
value for every other cell) when that is a plain table; otherwise it is read at the
sampled cells plus 0..max(N, scalars)+1 (capped) and other cells are 0. The result is
checked with `admissible` (None when it is not, or when z3 answers unknown).

`AutoInputs` samples first and switches to the solver, per thread count, once sampling
found nothing admissible: the `hoaregpu test` default.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from ..core import Kernel, VarKind
from ..launch import Geometry
from .generate import admissible, sample_state, sampling_generator
from .values import Array, State, empty_state, geometry_of

TIMEOUT_MS = 2000
MAX_CORE_ROUNDS = 8
MAX_INDEX = 256  # cells 0..min(max(N, scalars) + 2, this) of 1-D arrays are read from the model


@dataclass
class _Prepared:
    solver: Any  # z3.Solver with the entry facts and `requires`
    scalars: dict[str, Any]  # parameter → z3 term of its (uniform) initial value
    arrays: dict[str, tuple[Any, int, bool]]  # parameter → (z3 FuncDecl, dim, is local)


def _prepare(kernel: Kernel, threads: int | Geometry) -> _Prepared | None:
    import z3
    from pysmt import logics
    from pysmt.solvers.z3 import Z3Solver

    from ..driver import fresh_env
    from ..smt.closing import close_formula
    from ..smt.encode import Encoder, Mask
    from ..vc.generate import entry_facts

    with fresh_env() as env:
        enc = Encoder(kernel, env, geometry_of(threads).launch())
        m = enc.mgr
        facts = [*entry_facts(enc, kernel), *(enc.formula(f.term, Mask()) for f in kernel.requires)]
        pysolver = Z3Solver(env, logics.UFLIRA, solver_options={"timeout": TIMEOUT_MS})
        conv = pysolver.converter
        solver = z3.Solver(ctx=pysolver.z3.ctx)
        solver.set("timeout", TIMEOUT_MS)
        solver.add(conv.convert(close_formula(env, m.And(facts))))  # aggregates: smt.sums
        scalars: dict[str, Any] = {}
        arrays: dict[str, tuple[Any, int, bool]] = {}
        for p in kernel.params:
            d = kernel.decl(p)
            sym = enc.symbol(p)
            local = d.kind is VarKind.LOCAL
            if d.dim == 0:
                scalars[p] = conv.convert(m.Function(sym, [m.Int(0)]) if local else sym)
            else:
                args = [m.Int(0)] * (d.dim + (1 if local else 0))
                arrays[p] = (conv.convert(m.Function(sym, args)).decl(), d.dim, local)
    return _Prepared(solver, scalars, arrays)


def _value(model: Any, term: Any) -> int:
    return int(model.eval(term, model_completion=True).as_long())


def _interpretation(model: Any, decl: Any, dim: int) -> Array | None:
    """The model's function for a shared array as an `Array` (its entries, and its else value
    as the default), or None when the else value is not a number."""
    import z3

    fi = model[decl]
    if fi is None:
        return Array()
    default = fi.else_value()
    if default is None or not z3.is_int_value(default):
        return None
    arr = Array(default=int(default.as_long()))
    for i in range(fi.num_entries()):
        e = fi.entry(i)
        args = [e.arg_value(j) for j in range(dim)]
        if not all(z3.is_int_value(a) for a in args) or not z3.is_int_value(e.value()):
            return None
        arr.cells[tuple(int(a.as_long()) for a in args)] = int(e.value().as_long())
    return arr


class SolverInputs:
    """An `InputGenerator` backed by z3 models of `requires` (see the module docstring)."""

    def __init__(self) -> None:
        self._prepared: dict[tuple[int, int | Geometry], _Prepared | None] = {}
        self._pinned: list[Kernel] = []  # keep kernels alive so that id() keys stay unique

    def _get(self, kernel: Kernel, threads: int | Geometry) -> _Prepared | None:
        key = (id(kernel), threads)
        if key not in self._prepared:
            self._pinned.append(kernel)
            try:
                self._prepared[key] = _prepare(kernel, threads)
            except Exception:  # no z3, or a requires the encoder rejects: no inputs
                self._prepared[key] = None
        return self._prepared[key]

    def __call__(self, kernel: Kernel, threads: int | Geometry, rng: random.Random) -> State | None:
        try:
            return self._generate(kernel, threads, rng)
        except Exception:  # a generator says "nothing found"; it never crashes a test
            return None

    def _generate(self, kernel: Kernel, threads: int | Geometry, rng: random.Random) -> State | None:
        import z3

        prep = self._get(kernel, threads)
        if prep is None:
            return None
        target = sample_state(kernel, threads, rng)
        hints: list[tuple[Any, Any]] = []  # (z3 Bool literal, equation)
        for p, term in prep.scalars.items():
            d = kernel.decl(p)
            v = target.scalars[p][0] if d.kind is VarKind.LOCAL else target.shared[p].get(())
            hints.append((z3.Bool(f"hint!{len(hints)}", prep.solver.ctx), term == v))
        for p, (decl, _dim, local) in prep.arrays.items():
            arr = target.local_arrays[p][0] if local else target.shared[p]
            for k, v in arr.cells.items():
                args = [0, *k] if local else list(k)
                hints.append((z3.Bool(f"hint!{len(hints)}", prep.solver.ctx), decl(*args) == v))
        s = prep.solver
        s.push()
        try:
            for lit, eq in hints:
                s.add(z3.Implies(lit, eq))
            live = [lit for lit, _ in hints]
            answer = s.check(*live)
            rounds = 0
            while answer == z3.unsat and live and rounds < MAX_CORE_ROUNDS:
                core = {c.get_id() for c in s.unsat_core()}
                live = [lit for lit in live if lit.get_id() not in core]
                rounds += 1
                if not core:
                    break
                answer = s.check(*live)
            if answer == z3.unsat and live:
                answer = s.check()
            if answer != z3.sat:
                return None
            return self._state(kernel, threads, prep, s.model(), target)
        finally:
            s.pop()

    @staticmethod
    def _state(
        kernel: Kernel, launch: int | Geometry, prep: _Prepared, model: Any, target: State
    ) -> State | None:
        state = empty_state(kernel, launch)
        threads = state.threads
        values: list[int] = []
        for p, term in prep.scalars.items():
            v = _value(model, term)
            values.append(v)
            if kernel.decl(p).kind is VarKind.LOCAL:
                state.scalars[p] = [v] * threads
            else:
                state.shared[p] = Array({(): v})
        top = min(max([threads, *values]) + 2, MAX_INDEX)
        for p, (decl, dim, local) in prep.arrays.items():
            try:
                arr = None if local else _interpretation(model, decl, dim)
            except Exception:  # unusual z3 model: read the cells instead
                arr = None
            if arr is None:
                old = target.local_arrays[p][0] if local else target.shared[p]
                keys = set(old.cells) | ({(i,) for i in range(top)} if dim == 1 else set())
                arr = Array({k: _value(model, decl(*([0, *k] if local else list(k)))) for k in sorted(keys)})
            if local:
                state.local_arrays[p] = [arr.copy() for _ in range(threads)]
            else:
                state.shared[p] = arr
        return state if admissible(kernel, state) else None


class AutoInputs:
    """Rejection sampling first; per thread count, z3 models once sampling found nothing."""

    def __init__(self) -> None:
        self.solver = SolverInputs()
        self.hard: set[tuple[int, int | Geometry]] = set()

    def __call__(self, kernel: Kernel, threads: int | Geometry, rng: random.Random) -> State | None:
        key = (id(kernel), threads)
        if key not in self.hard:
            state = sampling_generator(kernel, threads, rng)
            if state is not None:
                return state
            self.hard.add(key)
        return self.solver(kernel, threads, rng)
