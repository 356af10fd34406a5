"""The results of whole files, kept on disk: a warm re-run reads them instead of parsing,
generating VCs and asking the solver cache VC by VC (issue 14: that took 60 s for `specs/`).

A file's entry is found by a key over everything its results depend on:
- hoaregpu itself: the bytes of every file of the package (code, preludes), and the
  versions of Python, pySMT, z3, cvc5 and libclang;
- the options that change results: the solvers (each one's identity and version, as the
  solver cache names them), timeout, memory cap, seed, configurations, `--incremental`,
  `--confirm`, the fixed launch, `--unroll`, `-D`/`-I`, race checking, replay;
- the file: its path as given (reports name it) and its bytes.
The entry also lists the files Clang included (other than hoaregpu's own preludes) with a
hash of each; it is used only if each still hashes the same. As with ccache's direct mode, a
header added in an earlier `-I` folder that would now shadow an included one is not noticed:
`--no-cache` re-does everything.

An entry holds what the last run found, as the solver cache would have given it back VC by
VC: proofs, refutations (their counterexamples already replayed), and undecided answers,
which a run with the same budget does not re-try either (a larger `--timeout` is another key).
A file with an input error, or with a solver error in any VC, is not stored: the next run
tries again. Results read back are marked `cached`. An entry that cannot be read, or is not
what it should be, is a miss, never fatal.

Entries keep what reports show, not the SMT text: a run that asks for the prepared kernels
(`--dump-smt`, `--show-core`, `--show-invariants`; the API's `on_prepared`) does not read
them. Entries are pickles under `<cache dir>/files/`: the cache directory must not be writable by
anyone you would not let run code as you (as with any build cache).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
import sys
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from .prepared import KernelResult, PreparedVc
from .solvers.cache import UNDECIDED, default_dir, undecided_note
from .solvers.outcome import Outcome, SolverResult

if TYPE_CHECKING:
    from .prepared import VerifyOptions

FORMAT = 1
_PACKAGE = Path(__file__).resolve().parent
_DISTRIBUTIONS = ("pysmt", "z3-solver", "cvc5", "libclang")
_STORABLE = {Outcome.PROVED, Outcome.REFUTED, Outcome.UNKNOWN, Outcome.TIMEOUT}


def _digest(fields: Iterable[str | bytes]) -> str:
    h = hashlib.sha256()
    for f in fields:
        data = f.encode() if isinstance(f, str) else f
        h.update(len(data).to_bytes(8, "big"))  # length-prefixed: no two field lists collide
        h.update(data)
    return h.hexdigest()


@cache
def tool_fingerprint() -> str:
    """hoaregpu's own files and the versions of what it runs on."""
    from importlib.metadata import PackageNotFoundError, version

    fields: list[str | bytes] = [f"hoaregpu-files-v{FORMAT}", sys.version]
    for name in _DISTRIBUTIONS:
        try:
            fields.append(f"{name}={version(name)}")
        except PackageNotFoundError:
            fields.append(f"{name}=none")
    for path in sorted(p for p in _PACKAGE.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        fields += [str(path.relative_to(_PACKAGE)), path.read_bytes()]
    return _digest(fields)


def file_hash(path: str) -> str | None:
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError:
        return None


@dataclass(frozen=True)
class _Entry:
    key: str
    dependencies: tuple[tuple[str, str], ...]  # (absolute path, sha256) of each included file
    kernels: tuple[KernelResult, ...]


def _slim(k: KernelResult) -> KernelResult:
    """What reports need: no SMT text (`verify` does not read this cache when the prepared
    kernels are asked for: `--dump-smt`, `--show-core`), and the queries of refuted VCs only,
    without their terms (the formulas of a kernel belong to the run that made them). Queries
    were most of an entry's objects and of a warm run's time."""
    refuted = {id(r.vc) for r in k.results if r.result.outcome is Outcome.REFUTED}
    slim: dict[int, PreparedVc] = {}

    def slimmed(vc: PreparedVc) -> PreparedVc:
        if id(vc) not in slim:
            shown = vc.queries if id(vc) in refuted else ()  # a counterexample's, else none
            queries = tuple(replace(q, term=None) for q in shown)
            slim[id(vc)] = replace(
                vc, body="", prefix="", prefix_end=0, alternatives=(), slices=(), queries=queries
            )
        return slim[id(vc)]

    prepared = replace(
        k.prepared, vcs=tuple(map(slimmed, k.prepared.vcs)), smt_prefix="", precondition_script=None
    )
    return replace(k, prepared=prepared, results=tuple(replace(r, vc=slimmed(r.vc)) for r in k.results))


def _as_cached(k: KernelResult, timeout: float) -> KernelResult:
    """Marked as the solver cache marks what it gives back (an undecided answer with a note)."""

    def cached(r: SolverResult) -> SolverResult:
        message = r.message
        if r.outcome in UNDECIDED and not r.cached:
            message += undecided_note(timeout)
        return replace(r, cached=True, seconds=0.0, message=message)

    results = tuple(replace(r, result=cached(r.result)) for r in k.results)
    pre = k.precondition
    return replace(k, results=results, precondition=cached(pre) if pre is not None else None)


class FileCache:
    """Whole files' results under `<directory>/files/`, for one set of options."""

    def __init__(self, options_fingerprint: str, timeout: float, directory: Path | str | None = None) -> None:
        self.directory = (Path(directory) if directory is not None else default_dir()) / "files"
        self.options = options_fingerprint
        self.timeout = timeout  # the budget of every undecided answer stored under these options
        self.hits = 0
        self.stores = 0

    def key(self, path: str, content: str | None = None) -> str | None:
        """The entry's key for `path` with the sha256 `content` (default: of the file now)."""
        content = content if content is not None else file_hash(path)
        if content is None:
            return None
        return _digest([f"hoaregpu-files-v{FORMAT}", tool_fingerprint(), self.options, path, content])

    def _path(self, key: str) -> Path:
        return self.directory / key[:2] / f"{key}.pickle"

    def get(self, path: str) -> tuple[KernelResult, ...] | None:
        """The file's results as the last run with these options found them, or None."""
        key = self.key(path)
        if key is None:
            return None
        try:
            with open(self._path(key), "rb") as f:
                entry = pickle.load(f)
        except Exception:  # missing, unreadable, truncated or from another version: a miss
            return None
        if not isinstance(entry, _Entry) or entry.key != key:
            return None
        if any(file_hash(dep) != digest for dep, digest in entry.dependencies):
            return None
        if not all(isinstance(k, KernelResult) and k.prepared.path == path for k in entry.kernels):
            return None
        self.hits += 1
        return tuple(_as_cached(k, self.timeout) for k in entry.kernels)

    def put(
        self,
        path: str,
        kernels: Sequence[KernelResult],
        content: str,
        dependencies: Sequence[tuple[str, str | None]],
    ) -> None:
        """Store a file's results under the sha256 `content` of the bytes that were parsed and
        the `dependencies` (included files, sha256 taken at the parse: `frontend.what_was_read`),
        unless some answer is a solver error (tried again next time)."""
        if any(r.result.outcome not in _STORABLE for k in kernels for r in k.results):
            return
        if any(k.precondition is not None and k.precondition.outcome not in _STORABLE for k in kernels):
            return
        key = self.key(path, content)
        if key is None or any(h is None for _, h in dependencies):
            return
        deps = tuple((dep, h) for dep, h in dependencies if h is not None)
        entry = _Entry(key, deps, tuple(_slim(k) for k in kernels))
        target = self._path(key)
        tmp = None
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".tmp-", suffix=".pickle")
            with os.fdopen(fd, "wb") as f:
                pickle.dump(entry, f, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, target)  # atomic: a concurrent reader sees the old entry or the new one
            tmp = None
            self.stores += 1
        except (OSError, pickle.PicklingError, RecursionError):
            pass
        finally:
            if tmp is not None:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)


def options_fingerprint(options: VerifyOptions, replay: bool) -> str | None:
    """What of the run's options its results depend on; None when a solver cannot run here
    (then the run goes the long way, which reports why)."""
    from .solvers.portfolio import members
    from .solvers.registry import get_backend

    solvers = []
    for name in sorted(set(members(options.solver))):
        fingerprint = get_backend(name).fingerprint()
        if fingerprint is None:
            return None
        solvers.append(fingerprint)
    fields = [
        options.solver,
        *solvers,
        repr(options.solver_options),
        repr(options.threads),
        f"unroll={options.unroll}",
        repr(options.clang),
        f"races={options.check_races}",
        f"benign={options.benign_writes}",
        f"confirm={options.confirm}",
        f"replay={replay}",
    ]
    return _digest(fields)
