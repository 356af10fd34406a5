"""`hoaregpu suite --executor dask`: one Dask task per test kernel.

The grain is the kernel, not the VC: the suite's unit of isolation is a kernel's worker
process and its time limit (`runner.run_one`), and a task runs exactly that on a Dask
worker (so front end, VC generation and solving all move to the cluster, not only the
solver calls). The cluster's workers need this hoaregpu, the solvers, and the suite's
files at the same path (a shared file system, or the same checkout on every machine); a
kernel a worker cannot read is `not read` with the reason, as here.

Rows come back in the order of the files; `on_done` sees each as its task settles
(progress). A task lost with its worker (KilledWorker, a broken connection) is a row
`not read`, stage `dask error`; an interrupt cancels the tasks not yet done.
"""

from __future__ import annotations

import contextlib
import queue
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from .runner import Row, run_one

POLL_SECONDS = 0.5


def _lost(path: Path, root: Path, why: str) -> Row:
    rel = str(path.relative_to(root)) if path != root else path.name
    language = "OpenCL" if path.suffix == ".cl" else "CUDA"
    return Row(rel, language, "?", "not read", "not read", "dask error", why[:120])


def _next(done: queue.Queue[Any], client: Any) -> Any:
    """The next settled future; ConfigError when the connection is lost meanwhile."""
    from ..errors import ConfigError

    while True:
        try:
            return done.get(timeout=POLL_SECONDS)
        except queue.Empty:
            if client.status in ("closed", "closing"):
                raise ConfigError("the connection to the Dask scheduler was lost") from None


def run_on_dask(
    files: Sequence[Path],
    root: Path,
    jobs: int,
    scheduler: str | None,
    on_done: Callable[[Row], None] | None,
    timeout: float,
    solver: str,
    vc_timeout: float,
    sarif_root: Path | None,
) -> list[Row]:
    """`run_suite` on a Dask cluster (`jobs` local single-threaded workers, or `scheduler`'s)."""
    from ..solvers.dask_executor import DaskExecutor

    with DaskExecutor(scheduler, workers=jobs) as executor:  # ConfigError if unreachable
        client: Any = executor.client()
        # absolute paths: the worker's working directory is not ours
        absolute = [p.resolve() for p in files]
        run = uuid.uuid4().hex
        futures = [
            client.submit(
                run_one,
                path,
                root.resolve(),
                timeout,
                solver,
                vc_timeout,
                sarif_root.resolve() if sarif_root is not None else None,
                pure=False,
                key=f"hoaregpu-suite-{run}-{i}",
            )
            for i, path in enumerate(absolute)
        ]
        index = {f.key: i for i, f in enumerate(futures)}
        rows: list[Row | None] = [None] * len(files)
        done: queue.Queue[Any] = queue.Queue()  # as in DaskExecutor: not tied to a default client
        for f in futures:
            f.add_done_callback(done.put)
        try:
            for _ in futures:
                future = _next(done, client)
                i = index[future.key]
                if future.status == "finished":
                    row: Row = future.result()
                else:
                    exc = future.exception() if not future.cancelled() else "cancelled"
                    row = _lost(absolute[i], root.resolve(), f"{type(exc).__name__}: {exc}")
                rows[i] = row
                if on_done is not None:
                    on_done(row)
        finally:
            with contextlib.suppress(Exception):
                client.cancel([f for f in futures if not f.done()])
    return [r for r in rows if r is not None]
