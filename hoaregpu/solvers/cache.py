"""A result cache on disk: definitive answers (PROVED, REFUTED with its values) by script and solver.

The key is the sha256 of the script text, the solver (its name, and its command for a
user command), the solver's version, and the timeout, memory cap and seed. Entries are
small JSON files under `.hoaregpu-cache/` in the current directory, or under
`$HOAREGPU_CACHE_DIR`. A file that cannot be read or makes no sense is ignored (and
overwritten on the next store), never fatal; a cache that cannot be written is skipped.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from hoaregpu.solvers.options import SolverOptions
from hoaregpu.solvers.outcome import Outcome, SolverResult, Value

ENV_VAR = "HOAREGPU_CACHE_DIR"
DEFAULT_DIR = ".hoaregpu-cache"
FORMAT = 2  # 2: refutations carry their model check


def default_dir() -> Path:
    return Path(os.environ.get(ENV_VAR) or DEFAULT_DIR)


def cache_key(script: str, solver: str, version: str, options: SolverOptions) -> str:
    fields = [f"hoaregpu-cache-v{FORMAT}", solver, version, repr(float(options.timeout))]
    fields += [repr(options.memory_mb), repr(options.seed), script]
    h = hashlib.sha256()
    for f in fields:
        data = f.encode()
        h.update(len(data).to_bytes(8, "big"))  # length-prefixed: no two field lists collide
        h.update(data)
    return h.hexdigest()


def _value_ok(v: Any) -> bool:
    return v is None or isinstance(v, bool | int)


class ResultCache:
    def __init__(self, directory: Path | str | None = None) -> None:
        self.directory = Path(directory) if directory is not None else default_dir()
        self.hits = 0
        self.stores = 0

    def _path(self, key: str) -> Path:
        return self.directory / key[:2] / f"{key}.json"

    def get(self, key: str) -> SolverResult | None:
        """The cached definitive result, marked `cached`, or None (missing or unusable entry)."""
        try:
            doc = json.loads(self._path(key).read_text(encoding="utf-8"))
            outcome = Outcome(doc["outcome"])
            values = doc["values"]
            if (
                doc.get("key") != key
                or outcome not in (Outcome.PROVED, Outcome.REFUTED)
                or not isinstance(values, list)
                or not all(_value_ok(v) for v in values)
                or not isinstance(doc["solver"], str)
                or not isinstance(doc["version"], str)
                or not isinstance(doc["seconds"], int | float)
                or not isinstance(doc.get("model_check", ""), str)
            ):
                return None
            vals: tuple[Value, ...] = tuple(values) if outcome is Outcome.REFUTED else ()
            result = SolverResult(
                outcome=outcome,
                solver=doc["solver"],
                seconds=0.0,
                values=vals,
                version=doc["version"],
                cached=True,
                model_check=doc.get("model_check", "") if outcome is Outcome.REFUTED else "",
            )
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return None
        self.hits += 1
        return result

    def put(self, key: str, result: SolverResult) -> None:
        """Store a definitive result (others are ignored); write errors are ignored too."""
        if result.outcome not in (Outcome.PROVED, Outcome.REFUTED) or result.cached:
            return
        doc = {
            "key": key,
            "outcome": result.outcome.value,
            "values": list(result.values),
            "solver": result.solver,
            "version": result.version,
            "seconds": result.seconds,
            "model_check": result.model_check,
        }
        path = self._path(key)
        tmp = None
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".json")
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(doc, f)
            os.replace(tmp, path)  # atomic: a concurrent reader sees the old file or the new one
            tmp = None
            self.stores += 1
        except OSError:
            pass
        finally:
            if tmp is not None:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
