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
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass

from hoaregpu.errors import ConfigError
from hoaregpu.solvers.options import SolverOptions
from hoaregpu.solvers.outcome import Outcome, Value


@dataclass(frozen=True)
class Answer:
    """What a backend says from inside the worker; dispatch adds solver, time and version.

    `model`: after sat, the solver's model as SMT-LIB definitions (`(define-fun ...)`
    forms, as `get-model` prints them), checked against the VC before it is believed
    (`modelcheck`); None when the solver gave none."""

    outcome: Outcome
    values: tuple[Value, ...] = ()
    message: str = ""
    model: str | None = None


class Backend(ABC):
    """One way of running an SMT-LIB script."""

    name: str

    @abstractmethod
    def version(self) -> str | None:
        """The solver's version, or None when it cannot be told (e.g. not installed)."""

    @abstractmethod
    def unavailable(self) -> str | None:
        """Why this backend cannot run here, or None when it can."""

    @abstractmethod
    def solve(self, script: str, options: SolverOptions) -> Answer:
        """Run `script` (in the worker process) and classify the answer."""

    def identity(self) -> str:
        """What tells this backend apart in the result cache (a user command adds its argv)."""
        return self.name

    def family(self) -> str:
        """The solver this backend runs, whatever the version or interface (`z3` for z3 and
        z3-bin): `--confirm` needs proofs from two families."""
        return self.name


def program_family(program: str) -> str | None:
    """The family of a solver program by its file name (z3 → z3; cvc4, cvc5 → cvc), if known."""
    base = program.rsplit("/", 1)[-1].lower()
    if base.startswith("z3"):
        return "z3"
    if base.startswith(("cvc4", "cvc5")):
        return "cvc"
    return None


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


def timeout_message(options: SolverOptions) -> str:
    return f"timeout after {float(options.timeout)} s"


def memory_message(options: SolverOptions) -> str:
    return f"memory limit {options.memory_mb} MB exceeded"


def unknown_answer(reason: str, seconds: float, options: SolverOptions) -> Answer:
    """Classify a solver's "unknown": a time limit (by its reason or the clock), memory, or plain unknown."""
    low = reason.lower()
    if "memory" in low or "bad_alloc" in low:
        return Answer(Outcome.ERROR, message=memory_message(options))
    timed_out = any(word in low for word in ("timeout", "canceled", "cancelled", "resourceout", "time limit"))
    if timed_out or seconds >= 0.95 * options.timeout:
        return Answer(Outcome.TIMEOUT, message=timeout_message(options))
    return Answer(Outcome.UNKNOWN, message=f"solver answered unknown ({reason or 'no reason given'})")
