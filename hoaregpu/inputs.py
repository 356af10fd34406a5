"""The spec files a run reads: the files named, and the `.cu`/`.cl` files under the folders
named (in a module of its own: a warm run finds its files without loading the pipeline)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from .errors import ConfigError


def spec_files(paths: Sequence[str]) -> list[str]:
    """The `.cu` and `.cl` files named, or found (sorted) under the folders named."""
    out: list[str] = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            out.extend(str(f) for f in sorted([*path.rglob("*.cu"), *path.rglob("*.cl")]))
        elif path.is_file():
            out.append(str(path))
        else:
            raise ConfigError(f"no such file or folder: {p}")
    return out
