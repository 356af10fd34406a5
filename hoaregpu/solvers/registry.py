"""Solver backends by name, imported lazily.

Built in: `z3` and `cvc5` (pySMT's native bindings, run inside a worker process),
and `z3-bin`, `cvc4-bin`, `cvc5-bin` (an SMT-LIB binary found on PATH, fed the
script on standard input with a solver-side time limit). A user command is named
as `NAME=COMMAND`: COMMAND (split like a shell would) reads the script on standard
input and prints `sat`/`unsat`/`unknown` and the get-value answer.

A backend's `solve` runs in the worker process (see `dispatch`), never in the
process that calls `solve_many`.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable
from dataclasses import dataclass

from hoaregpu.errors import ConfigError
from hoaregpu.solvers.backend import Backend


@dataclass(frozen=True)
class BackendInfo:
    name: str
    version: str | None
    available: bool
    reason: str | None = None


def _z3() -> Backend:
    from hoaregpu.solvers.native import Z3Backend

    return Z3Backend()


def _cvc5() -> Backend:
    from hoaregpu.solvers.native import Cvc5Backend

    return Cvc5Backend()


def _binary(name: str) -> Callable[[], Backend]:
    def make() -> Backend:
        from hoaregpu.solvers.binary import known_binary

        return known_binary(name)

    return make


_FACTORIES: dict[str, Callable[[], Backend]] = {
    "z3": _z3,
    "cvc5": _cvc5,
    "z3-bin": _binary("z3-bin"),
    "cvc4-bin": _binary("cvc4-bin"),
    "cvc5-bin": _binary("cvc5-bin"),
}
_INSTANCES: dict[str, Backend] = {}
_USER_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_.+-]*")
_COMMANDS: dict[str, str] = {}  # user commands by name: a Dask worker registers them too


def register_backend(name: str, factory: Callable[[], Backend]) -> None:
    """Add (or replace) a backend. Workers are forked, so they see it too."""
    _FACTORIES[name] = factory
    _INSTANCES.pop(name, None)


def backend_names() -> list[str]:
    return sorted(_FACTORIES)


def _choices() -> str:
    return ", ".join(backend_names()) + ", portfolio, a comma-separated list of these, or NAME=COMMAND"


BUILTIN_NAMES = frozenset(_FACTORIES) | {"portfolio"}


def register_command(name: str, command: str) -> None:
    """Make a user command (`--solver-cmd NAME=COMMAND`, `[solvers]` in hoaregpu.toml) a backend."""
    name = name.strip()
    if not _USER_NAME.fullmatch(name):
        raise ConfigError(f"bad solver name {name!r}; use letters, digits, '_', '.', '+', '-'")
    if name in BUILTIN_NAMES:
        raise ConfigError(f"solver name {name!r} is built in; give the command another name")
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise ConfigError(f"cannot split solver command {command!r}: {exc}") from exc
    if not argv:
        raise ConfigError(f"solver {name!r} has an empty command")

    def make() -> Backend:
        from hoaregpu.solvers.binary import CommandBackend

        return CommandBackend(name, argv)

    register_backend(name, make)
    _COMMANDS[name] = command


def user_commands() -> dict[str, str]:
    """The user commands registered in this process (`register_command`), by name."""
    return dict(_COMMANDS)


def get_backend(name: str) -> Backend:
    """The backend called `name` (or a user command `NAME=COMMAND`); ConfigError if there is none."""
    cached = _INSTANCES.get(name)
    if cached is not None:
        return cached
    if name in _FACTORIES:
        backend = _FACTORIES[name]()
    elif "=" in name:
        user, _, command = name.partition("=")
        user = user.strip()
        if not _USER_NAME.fullmatch(user):
            raise ConfigError(f"bad solver name {user!r} in {name!r}; use letters, digits, '_', '.', '-'")
        try:
            argv = shlex.split(command)
        except ValueError as exc:
            raise ConfigError(f"cannot split solver command {command!r}: {exc}") from exc
        if not argv:
            raise ConfigError(f"solver {user!r} has an empty command")
        from hoaregpu.solvers.binary import CommandBackend

        backend = CommandBackend(user, argv)
    else:
        raise ConfigError(f"unknown solver {name!r}; choose one of {_choices()}")
    _INSTANCES[name] = backend
    return backend


def list_backends() -> list[BackendInfo]:
    """Every registered backend with its version and whether it can run here."""
    infos = []
    for name in backend_names():
        backend = get_backend(name)
        reason = backend.unavailable()
        version = backend.version() if reason is None else None
        infos.append(BackendInfo(name=name, version=version, available=reason is None, reason=reason))
    return infos
