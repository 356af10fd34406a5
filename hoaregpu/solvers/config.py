"""User solver commands: `[solvers]` in `hoaregpu.toml` (current directory) and `--solver-cmd`.

    [solvers]
    yices = "yices-smt2 --incremental"
    z3-new = "/opt/z3/bin/z3 -in -smt2 -t:10000"

Each command reads the SMT-LIB script on standard input (see `binary.CommandBackend`).
Command-line definitions replace config-file ones of the same name.
"""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from pathlib import Path

from hoaregpu.errors import ConfigError
from hoaregpu.solvers.registry import register_command

CONFIG_FILE = "hoaregpu.toml"


def read_config(path: Path) -> dict[str, str]:
    """The `[solvers]` table of a config file; {} when the file does not exist."""
    try:
        with path.open("rb") as f:
            doc = tomllib.load(f)
    except FileNotFoundError:
        return {}
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"cannot read {path}: {exc}") from exc
    table = doc.get("solvers", {})
    if not isinstance(table, dict):
        raise ConfigError(f'{path}: [solvers] must be a table of NAME = "COMMAND"')
    out: dict[str, str] = {}
    for name, command in table.items():
        if not isinstance(command, str):
            raise ConfigError(f"{path}: solver {name!r} must be a command string, not {command!r}")
        out[name] = command
    return out


def parse_solver_cmd(spec: str) -> tuple[str, str]:
    name, sep, command = spec.partition("=")
    if not sep:
        raise ConfigError(f"--solver-cmd takes NAME=COMMAND, not {spec!r}")
    return name.strip(), command


def register_user_solvers(cli_specs: Sequence[str] = (), config: Path | None = None) -> list[str]:
    """Register the config file's solvers, then the command line's; return their names."""
    commands = read_config(config if config is not None else Path(CONFIG_FILE))
    for spec in cli_specs:
        name, command = parse_solver_cmd(spec)
        commands[name] = command
    for name, command in commands.items():
        register_command(name, command)
    return list(commands)
