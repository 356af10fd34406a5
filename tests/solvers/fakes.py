"""Fake solver commands (shell scripts) for the portfolio, cache and bench tests."""

from __future__ import annotations

import itertools
from pathlib import Path

from pysmt.environment import reset_env
from pysmt.shortcuts import GT, LT, And, Int, Symbol
from pysmt.typing import INT

from hoaregpu.smt import script_text
from hoaregpu.solvers.registry import register_command

_names = itertools.count()


def fake_command(tmp: Path, body: str) -> str:
    """Write an executable /bin/sh script that first reads the SMT-LIB script from stdin."""
    path = tmp / f"fake{next(_names)}.sh"
    path.write_text(f"#!/bin/sh\ncat > /dev/null\n{body}\n")
    path.chmod(0o755)
    return str(path)


def fake_solver(tmp: Path, body: str, prefix: str = "fake") -> str:
    """Register a fake as a user solver under a fresh name; return the name."""
    name = f"{prefix}{next(_names)}"
    register_command(name, fake_command(tmp, body))
    return name


def refutable_script() -> str:
    """A negated VC that is satisfiable (the VC is refuted): x > 0."""
    reset_env()
    x = Symbol("x", INT)
    return script_text(GT(x, Int(0)), [x])


def valid_script() -> str:
    """A negated VC that is unsatisfiable (the VC is proved): x > 0 and x < 0."""
    reset_env()
    x = Symbol("x", INT)
    return script_text(And(GT(x, Int(0)), LT(x, Int(0))))
