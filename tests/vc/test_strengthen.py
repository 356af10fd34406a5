"""Stronger goals (`vc.strengthen`): every result implies the goal it came from, and the race
checks get one without the benign-write tolerance, whose slice needs no array contents."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from pysmt.environment import Environment
from pysmt.fnode import FNode
from pysmt.typing import INT

from hoaregpu.driver import load_kernels, prepare_kernel
from hoaregpu.race_instrument import value_of
from hoaregpu.solvers import Outcome, SolverOptions, SolveTask, solve_many
from hoaregpu.vc.kinds import VcKind
from hoaregpu.vc.strengthen import named, reading, strengthened


def _valid(env: Environment, f: FNode) -> bool:
    with env.factory.Solver(name="z3") as s:
        s.add_assertion(env.formula_manager.Not(f))
        return not s.solve()


def _atoms(env: Environment) -> list[FNode]:
    m = env.formula_manager
    x, y = m.Symbol("x", INT), m.Symbol("y", INT)
    v = m.Symbol("hg.race.value.a!3", INT)
    return [m.LE(x, y), m.Equals(x, m.Int(0)), m.Equals(v, y), m.LT(v, x)]


def _formula(env: Environment, draw: Callable[..., Any], depth: int) -> FNode:
    m = env.formula_manager
    atoms = _atoms(env)
    if depth == 0 or draw(st.booleans()):
        return atoms[draw(st.integers(0, len(atoms) - 1))]
    op = draw(st.sampled_from(["not", "and", "or", "implies", "iff", "ite"]))
    a, b = _formula(env, draw, depth - 1), _formula(env, draw, depth - 1)
    if op == "not":
        return m.Not(a)
    if op == "and":
        return m.And(a, b)
    if op == "or":
        return m.Or(a, b)
    if op == "implies":
        return m.Implies(a, b)
    if op == "iff":
        return m.Iff(a, b)
    return m.Ite(a, b, _formula(env, draw, depth - 1))


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_a_strengthened_goal_implies_the_goal(data: st.DataObject) -> None:
    env = Environment()
    goal = _formula(env, data.draw, 4)
    strong = strengthened(env.formula_manager, goal, reading(named("hg.race.value.")))
    if strong is None:
        return
    assert "hg.race.value." not in _outside_iff_and_ite(strong)
    assert _valid(env, env.formula_manager.Implies(strong, goal))


def _outside_iff_and_ite(f: FNode) -> str:
    """The symbols of `f` not under an `↔` or `ite` (where a strengthening must not look)."""
    if f.is_iff() or f.is_ite():
        return ""
    if f.is_symbol():
        return str(f.symbol_name())
    if f.is_not() or f.is_and() or f.is_or() or f.is_implies():
        return " ".join(_outside_iff_and_ite(a) for a in f.args())
    return " ".join(s.symbol_name() for s in f.get_free_variables())


def test_the_tolerance_of_same_value_writes_is_dropped_from_a_conflict() -> None:
    env = Environment()
    m = env.formula_manager
    flag, off, c = (m.Symbol(n, INT) for n in ("hg.race.write.a!2", "hg.race.write.a.0!2", "c"))
    value, mine = m.Symbol("hg.race.value.a!2", INT), m.Symbol("v", INT)
    conflict = m.And(m.GE(flag, m.Int(1)), m.Equals(off, c), m.Not(m.Equals(value, mine)))
    strong = strengthened(m, m.Not(conflict), reading(named(value_of(""))))
    assert strong is not None
    assert _valid(env, m.Iff(strong, m.Not(m.And(m.GE(flag, m.Int(1)), m.Equals(off, c)))))


def test_nothing_to_drop_gives_none_and_an_iff_is_replaced_whole() -> None:
    env = Environment()
    m = env.formula_manager
    v, x = m.Symbol("hg.race.value.a!2", INT), m.Symbol("x", INT)
    assert strengthened(m, m.LE(x, m.Int(3)), reading(named(value_of("")))) is None
    # inside ↔ an atom has both polarities: the ↔ is replaced whole
    inside_iff = m.Iff(m.Equals(v, x), m.LE(x, m.Int(3)))
    strongest = m.Not(m.TRUE())  # (false)
    assert strengthened(m, m.Not(inside_iff), reading(named(value_of("")))) == strongest


# A down-sweep round of a Blelloch scan, several times over: each round's writes go to cells
# no other thread touches, and their values are sums of the whole history of `t`.
ROUNDS = """
    if ((threadIdx.x + 1) % {two_d} == 0) {{
        int x = t[threadIdx.x - {d}];
        t[threadIdx.x - {d}] = t[threadIdx.x];
        t[threadIdx.x] += x;
    }}
    __syncthreads();
"""


def _down_sweep(tmp_path: Path) -> Path:
    rounds = "".join(ROUNDS.format(d=d, two_d=2 * d) for d in (8, 4, 2, 1) * 2)
    path = tmp_path / "down.cu"
    path.write_text(
        "/*@ requires gridDim.x == 1; requires blockDim.x == 16; */\n"
        "__global__ void down(int *in, int *out) {\n"
        "    __shared__ int t[16];\n"
        "    t[threadIdx.x] = in[threadIdx.x];\n"
        "    __syncthreads();\n"
        f"{rounds}"
        "    out[threadIdx.x] = t[threadIdx.x];\n"
        "}\n"
    )
    return path


def test_the_race_checks_get_a_slice_without_the_arrays_contents_and_it_proves(tmp_path: Path) -> None:
    path = _down_sweep(tmp_path)
    (k,) = load_kernels(str(path))
    prepared = prepare_kernel(str(path), k, None)
    checks = [vc for vc in prepared.vcs if vc.origin.kind is VcKind.DATA_RACE]
    writes = [vc for vc in checks if value_of("t") in vc.script.rsplit("(assert (not", 1)[-1]]
    assert writes, "the write checks compare the values written"
    late = checks[-12:]  # the last rounds' reads and writes (long paths)
    assert any(vc in writes for vc in late) and any(vc not in writes for vc in late)
    for vc in late:
        first = vc.slices[0]  # one formula: not (premises -> goal)
        assert "hg.race.value" not in first  # the tolerance is gone from the goal,
        assert "(declare-fun t!" not in first  # and the contents of `t` from the premises
        assert len(first) < len(vc.script) * 0.6
    results = solve_many([SolveTask(vc.slices[0], "z3") for vc in late], SolverOptions(timeout=20.0))
    assert [r.outcome for r in results] == [Outcome.PROVED] * len(late)
