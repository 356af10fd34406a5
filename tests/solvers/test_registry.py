"""Options validation, the backend registry, user commands and reading binaries' output."""

from __future__ import annotations

import math
import shutil
import subprocess
import time

import pytest
from pysmt.environment import reset_env
from pysmt.shortcuts import Equals, Int, Not, Plus, Symbol
from pysmt.typing import INT

from hoaregpu.errors import ConfigError, SolverError
from hoaregpu.smt import script_text
from hoaregpu.solvers import Outcome, SolverOptions, SolveTask, get_backend, list_backends, solve_many
from hoaregpu.solvers.binary import classify_output

OPTS = SolverOptions(timeout=1.0)


@pytest.mark.parametrize(
    ("kwargs", "fragment"),
    [
        ({"timeout": 0}, "timeout"),
        ({"timeout": -1.5}, "timeout"),
        ({"timeout": math.nan}, "timeout"),
        ({"timeout": math.inf}, "timeout"),
        ({"timeout": "10"}, "timeout"),
        ({"timeout": True}, "timeout"),
        ({"memory_mb": 0}, "memory"),
        ({"memory_mb": -4}, "memory"),
        ({"memory_mb": 1.5}, "memory"),
        ({"seed": -1}, "seed"),
        ({"seed": 1.0}, "seed"),
    ],
)
def test_bad_options_raise_config_error(kwargs: dict[str, object], fragment: str) -> None:
    with pytest.raises(ConfigError, match=fragment):
        SolverOptions(**kwargs)  # type: ignore[arg-type]


def test_good_options() -> None:
    assert SolverOptions() == SolverOptions(timeout=10.0, memory_mb=4096, seed=0)
    o = SolverOptions(timeout=0.0015, memory_mb=None, seed=7)
    assert o.timeout_ms == 2 and o.memory_mb is None


def test_unknown_solver_lists_the_valid_names() -> None:
    with pytest.raises(ConfigError) as err:
        get_backend("yices")
    text = str(err.value)
    assert text.startswith("unknown solver 'yices'; choose one of ")
    for name in ("z3", "cvc5", "z3-bin", "cvc4-bin", "cvc5-bin", "NAME=COMMAND"):
        assert name in text


def test_list_backends() -> None:
    infos = {i.name: i for i in list_backends()}
    assert {"z3", "cvc5", "z3-bin", "cvc4-bin", "cvc5-bin"} <= set(infos)
    for name in ("z3", "cvc5"):
        assert infos[name].available and infos[name].version and infos[name].reason is None
    for name, prog in (("z3-bin", "z3"), ("cvc4-bin", "cvc4"), ("cvc5-bin", "cvc5")):
        info = infos[name]
        assert info.available == (shutil.which(prog) is not None)
        if not info.available:
            assert info.reason and prog in info.reason and info.version is None


@pytest.mark.parametrize("spec", ["=z3", "bad name=z3", "x=", "x='unclosed"])
def test_bad_user_commands(spec: str) -> None:
    with pytest.raises(ConfigError):
        get_backend(spec)


def test_missing_user_program_is_a_solver_error() -> None:
    with pytest.raises(SolverError, match="not found"):
        solve_many([SolveTask("(check-sat)", "ghost=/nonexistent/solver --x")], OPTS)


def easy_script() -> str:
    reset_env()
    x = Symbol("x", INT)
    return script_text(Not(Equals(Plus(x, Int(1)), Plus(Int(1), x))), [x])


@pytest.mark.skipif(shutil.which("z3") is None, reason="z3 binary not installed (apt-get install z3)")
def test_user_command_runs_a_binary() -> None:
    [r] = solve_many([SolveTask(easy_script(), "mine=z3 -in -smt2")], OPTS)
    assert r.outcome is Outcome.PROVED and r.solver == "mine=z3 -in -smt2"


def test_user_command_that_hangs_is_killed_with_its_children() -> None:
    marker = f"sleep 60.{time.monotonic_ns() % 10**9:09d}"
    start = time.monotonic()
    [r] = solve_many([SolveTask("(check-sat)", f"hang=sh -c '{marker}; echo done'")], OPTS)
    assert r.outcome is Outcome.TIMEOUT
    assert time.monotonic() - start < OPTS.timeout + 2.5
    time.sleep(0.2)
    ps = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True).stdout
    assert marker not in ps


def test_user_command_with_garbage_output_is_an_error() -> None:
    [r] = solve_many([SolveTask("(check-sat)", "talker=echo hello")], OPTS)
    assert r.outcome is Outcome.ERROR and "hello" in r.message


@pytest.mark.parametrize(
    ("stdout", "outcome", "values"),
    [
        ('unsat\n(error "model is not available")\n', Outcome.PROVED, ()),
        ("sat\n((n (- 2))\n ((div (- 7) n) 4)\n ((|f x| 1 2) true))\n", Outcome.REFUTED, (-2, 4, True)),
        ("sat\n((x 5))\n", Outcome.REFUTED, (5,)),
        ("sat\n((x (/ 1 2)))\n", Outcome.REFUTED, (None,)),
        ("unknown\n(:reason-unknown incomplete)\n", Outcome.UNKNOWN, ()),
        ("unknown\n(:reason-unknown timeout)\n", Outcome.TIMEOUT, ()),
        ('(error "line 1: unknown logic")\n', Outcome.ERROR, ()),
        ("", Outcome.ERROR, ()),
    ],
)
def test_classify_binary_output(stdout: str, outcome: Outcome, values: tuple[object, ...]) -> None:
    answer = classify_output(stdout, "", 0, 0.01, SolverOptions(timeout=5.0))
    assert answer.outcome is outcome
    assert answer.values == values


def test_classify_binary_out_of_memory() -> None:
    answer = classify_output("", "std::bad_alloc", 134, 0.5, SolverOptions(memory_mb=300))
    assert answer.outcome is Outcome.ERROR and answer.message == "memory limit 300 MB exceeded"
