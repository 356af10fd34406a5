"""A result cache on disk: what a solver answered for a script.

The key is the sha256 of the script text, the solver (its name, and its command for a
user command) and the solver's version. A proof or a refutation holds whatever the budget,
so it is reused under any timeout, memory cap and seed. An undecided answer (UNKNOWN,
TIMEOUT) is stored with the budget it had, and reused only for a budget no larger (timeout
and memory cap at most the stored ones, no more solver configurations at once, the same
seed): a larger budget, another solver or `--no-cache` tries again. Reused undecided
answers say so in their message; they are never proofs. Solver errors are not stored.
Entries are small JSON files under `.hoaregpu-cache/` in the current directory, or under
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
FORMAT = 4  # 2: refutations carry their model check; 3: budget-free keys, undecided answers;
# 4: a long kernel's VCs are tried on their slice first (undecided answers of before are stale)


def default_dir() -> Path:
    return Path(os.environ.get(ENV_VAR) or DEFAULT_DIR)


def cache_key(script: str, solver: str, version: str) -> str:
    fields = [f"hoaregpu-cache-v{FORMAT}", solver, version, script]
    h = hashlib.sha256()
    for f in fields:
        data = f.encode()
        h.update(len(data).to_bytes(8, "big"))  # length-prefixed: no two field lists collide
        h.update(data)
    return h.hexdigest()


def _value_ok(v: Any) -> bool:
    return v is None or isinstance(v, bool | int)


DEFINITIVE = (Outcome.PROVED, Outcome.REFUTED)
UNDECIDED = (Outcome.UNKNOWN, Outcome.TIMEOUT)


def _budget(options: SolverOptions) -> dict[str, Any]:
    return {
        "timeout": float(options.timeout),
        "memory_mb": options.memory_mb,
        "seed": options.seed,
        "strategies": options.strategies,
    }


def _covers(stored: Any, asked: SolverOptions) -> bool:
    """An undecided answer under `stored` stands for `asked`: no more time, memory, configurations
    run at once (entries older than `strategies` ran them in sequence), same seed."""
    if not isinstance(stored, dict) or not isinstance(stored.get("timeout"), int | float):
        return False
    memory, asked_memory = stored.get("memory_mb"), asked.memory_mb
    memory_ok = memory is None or (
        asked_memory is not None and isinstance(memory, int) and asked_memory <= memory
    )
    strategies = stored.get("strategies", 1)
    strategies_ok = isinstance(strategies, int) and asked.strategies <= strategies
    same_seed = stored.get("seed") == asked.seed
    return bool(asked.timeout <= stored["timeout"] and memory_ok and strategies_ok and same_seed)


def undecided_note(timeout: float) -> str:
    """What a reused undecided answer's message says of it."""
    return f" (cached from a run with a {timeout:g} s budget; a larger --timeout or --no-cache tries again)"


class ResultCache:
    def __init__(self, directory: Path | str | None = None) -> None:
        self.directory = Path(directory) if directory is not None else default_dir()
        self.hits = 0
        self.stores = 0

    def _path(self, key: str) -> Path:
        return self.directory / key[:2] / f"{key}.json"

    def read_entry(self, key: str) -> dict[str, Any] | None:
        """The stored JSON document for `key` (None if missing or unreadable)."""
        try:
            doc = json.loads(self._path(key).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return doc if isinstance(doc, dict) and doc.get("key") == key else None

    def get(self, key: str, options: SolverOptions) -> SolverResult | None:
        """The cached result, marked `cached`: a proof or refutation; an undecided answer
        whose budget covers `options`. None for a missing, unusable or too small entry."""
        try:
            doc = self.read_entry(key)
            if doc is None:
                return None
            outcome = Outcome(doc["outcome"])
            values = doc["values"]
            if outcome in UNDECIDED:
                return self._undecided(doc, outcome, options)
            if (
                outcome not in DEFINITIVE
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

    def _undecided(
        self, doc: dict[str, Any], outcome: Outcome, options: SolverOptions
    ) -> SolverResult | None:
        budget = doc.get("budget")
        if not _covers(budget, options) or not isinstance(doc.get("message"), str):
            return None
        if not isinstance(doc.get("solver"), str) or not isinstance(doc.get("version"), str):
            return None
        self.hits += 1
        assert isinstance(budget, dict)
        return SolverResult(
            outcome=outcome,
            solver=doc["solver"],
            seconds=0.0,
            message=doc["message"] + undecided_note(budget["timeout"]),
            version=doc["version"],
            cached=True,
        )

    def put(self, key: str, result: SolverResult, options: SolverOptions) -> None:
        """Store a proof or refutation, or an undecided answer with its budget `options`
        (unless a proof or refutation is stored already); errors are not stored, and
        failures to write are ignored."""
        if result.cached or result.outcome not in (*DEFINITIVE, *UNDECIDED):
            return
        doc: dict[str, Any] = {
            "key": key,
            "outcome": result.outcome.value,
            "values": list(result.values),
            "solver": result.solver,
            "version": result.version,
            "seconds": result.seconds,
            "model_check": result.model_check,
        }
        if result.outcome in UNDECIDED:
            old = self.read_entry(key)
            if old is not None and old.get("outcome") in [o.value for o in DEFINITIVE]:
                return  # a definitive answer stays
            doc |= {"message": result.message, "budget": _budget(options)}
        self.write_entry(key, doc)

    def write_entry(self, key: str, doc: dict[str, Any]) -> None:
        """Store a document made by `put` (the Dask executor merges its workers' stores)."""
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
