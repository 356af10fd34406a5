"""The preprocessor options of a run (`-D NAME=VALUE`, `-I DIR`), in a module of its own:
the options of a run are known before anything is parsed (and without loading libclang)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ClangOptions:
    """Preprocessor options from the command line (`-D NAME=VALUE`, `-I DIR`); Clang's whole
    command line is `frontend.clang.clang_args`."""

    defines: tuple[str, ...] = ()
    include_dirs: tuple[str, ...] = ()
