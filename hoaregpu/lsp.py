"""`hoaregpu lsp`: a language server (pygls) that verifies kernels as they are opened and saved.

On `didOpen` and `didSave` of a `.cu` file the server checks the file in a process of its
own: the front end's errors and warnings are published at once, then each refuted or
undecided VC as its answer arrives (proved VCs add nothing). A newer save of the same file
makes the running check stale: its process is told to stop (the dispatcher kills its solver
workers within 0.2 s) and its results are dropped, so the editor shows only the diagnostics
of the saved text. Closing a file, or shutting the server down, stops its checks.

Why a process per check: the solver dispatcher forks its workers, and forking the server,
whose event loop and executor threads may hold locks at that moment, can leave a worker
deadlocked until its timeout. The check process is started with `spawn` and has one thread.
Diagnostics are published from the event loop only (pygls' writer is not thread-safe).

With `--executor dask` the VCs of each check are solved on a Dask cluster: `--scheduler`'s,
or a local one the server starts once (`jobs` workers) and keeps for its lifetime, so that
a save does not pay for a cluster's start. Each check process connects its own client to
that scheduler; a newer save stops the stale check's tasks and solvers through the Dask
executor's stop event. A lost cluster is an error diagnostic at line 1, not a silent stop.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import multiprocessing
import re
import threading
from collections.abc import Sequence
from multiprocessing.connection import Connection
from typing import Any

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from . import __version__, driver
from .driver import PreparedKernel, PreparedVc
from .errors import HoareGpuError, Span, SpecError, SpecWarning
from .limits import DEFAULT_UNROLL
from .report import counterexample
from .solvers import Outcome, SolverOptions, SolverResult
from .solvers.dispatch import Stopped

SOURCE = "hoaregpu"
_WORD = re.compile(r"[A-Za-z_0-9]+|\S")


def _range(span: Span, lines: Sequence[str]) -> types.Range:
    """The token at `span` (1-based line and column) as an LSP range (0-based)."""
    line, col = max(span.line - 1, 0), max(span.col - 1, 0)
    text = lines[line] if line < len(lines) else ""
    m = _WORD.match(text, col) if col < len(text) else None
    end = m.end() if m is not None else col + 1
    return types.Range(types.Position(line, col), types.Position(line, end))


def _diagnostic(
    span: Span, lines: Sequence[str], message: str, severity: types.DiagnosticSeverity, code: str
) -> types.Diagnostic:
    return types.Diagnostic(
        range=_range(span, lines), message=message, severity=severity, code=code, source=SOURCE
    )


def error_diagnostic(err: SpecError, lines: Sequence[str]) -> types.Diagnostic:
    message = err.message + (f"\n{err.hint}" if err.hint else "")
    return _diagnostic(err.span, lines, message, types.DiagnosticSeverity.Error, "input-error")


def warning_diagnostic(w: SpecWarning, lines: Sequence[str]) -> types.Diagnostic:
    return _diagnostic(w.span, lines, w.message, types.DiagnosticSeverity.Warning, w.tag or "warning")


def vc_diagnostic(vc: PreparedVc, result: SolverResult, lines: Sequence[str]) -> types.Diagnostic | None:
    """A refuted VC is an error with its counterexample; an undecided one a warning that
    says it is no proof; a proved one nothing."""
    o = vc.origin
    if result.outcome is Outcome.PROVED:
        return None
    if result.outcome is Outcome.REFUTED:
        cex = [line.strip() for line in counterexample(vc.queries, result.values)]
        message = "\n".join([o.message, *cex])
        severity = types.DiagnosticSeverity.Error
    else:
        why = result.message or "no reason given"
        message = f"{o.message}: not decided ({result.outcome.value}: {why}); this is not a proof"
        severity = (
            types.DiagnosticSeverity.Error
            if result.outcome is Outcome.ERROR
            else types.DiagnosticSeverity.Warning
        )
    return _diagnostic(o.span, lines, f"{message}\n(by {o.rule}, {result.solver})", severity, o.kind.value)


# a diagnostic as the check process sends it: line, col (1-based), end col, message, severity, code
Diag = tuple[int, int, int, str, int, str]


def _plain(d: types.Diagnostic) -> Diag:
    r = d.range
    return (r.start.line, r.start.character, r.end.character, d.message, int(d.severity or 1), str(d.code))


def _lsp(d: Diag) -> types.Diagnostic:
    line, col, end, message, severity, code = d
    return types.Diagnostic(
        range=types.Range(types.Position(line, col), types.Position(line, end)),
        message=message,
        severity=types.DiagnosticSeverity(severity),
        code=code,
        source=SOURCE,
    )


def check_file(
    path: str,
    options: driver.VerifyOptions,
    solver_cmd: Sequence[str],
    send: Connection,
    stop: Any,
    scheduler: str | None = None,
) -> None:
    """The check process: sends a list of diagnostics after the front end and after each
    VC that adds one; stops when `stop` (a multiprocessing Event) is set. `scheduler`: solve
    on the Dask cluster there."""
    from .solvers.config import register_user_solvers

    found: list[Diag] = []
    lines: list[str] = []
    try:
        register_user_solvers(solver_cmd)  # a spawned process starts with the built-in solvers
        prepared, errors = driver.prepare([path], None, DEFAULT_UNROLL)
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                lines = f.read().splitlines()
        except OSError:
            lines = []
        found += [_plain(error_diagnostic(e, lines)) for e in errors]
        found += [_plain(warning_diagnostic(w, lines)) for k in prepared for w in k.kernel.warnings]
        send.send(found)
        if not prepared:
            return

        def on_vc(kernel: PreparedKernel, vc: PreparedVc, result: SolverResult) -> None:
            d = vc_diagnostic(vc, result, lines)
            if d is not None:
                found.append(_plain(d))
                send.send(found)

        with contextlib.ExitStack() as stack:
            if scheduler is not None:
                from .solvers.dask_executor import DaskExecutor

                executor = stack.enter_context(DaskExecutor(scheduler))
                options = dataclasses.replace(options, executor=executor)
            with contextlib.suppress(Stopped):  # a newer save: the workers are killed
                driver.solve(prepared, options, on_vc=on_vc, stop=stop)
    except HoareGpuError as e:  # the Dask cluster unreachable or lost, a solver missing: say so
        where = Span(path, 1, 1)
        found.append(_plain(_diagnostic(where, lines, str(e), types.DiagnosticSeverity.Error, "check-error")))
        with contextlib.suppress(BrokenPipeError, EOFError, OSError):
            send.send(found)
    except (BrokenPipeError, EOFError):  # the server is gone
        pass
    finally:
        send.close()


class HoareGpuServer(LanguageServer):
    def __init__(
        self,
        solver: str = "z3",
        timeout: float = 10.0,
        jobs: int = 1,
        solver_cmd: Sequence[str] = (),
        scheduler: str | None = None,
    ) -> None:
        super().__init__("hoaregpu", __version__)
        self.options = driver.VerifyOptions(
            solver=solver, solver_options=SolverOptions(timeout=timeout), jobs=jobs, cache=True
        )
        self.generation: dict[str, int] = {}
        self.stops: dict[str, Any] = {}  # the running check of each document: its stop Event
        self.lock = threading.Lock()
        self.context = multiprocessing.get_context("spawn")
        self.solver_cmd = tuple(solver_cmd)
        self.scheduler = scheduler  # the Dask cluster's, or None: local workers

    def current(self, uri: str, generation: int) -> bool:
        with self.lock:
            return self.generation.get(uri) == generation

    def start_check(self, uri: str) -> tuple[int, Any]:
        """A new check of `uri`; the one still running (if any) is stopped."""
        with self.lock:
            if uri in self.stops:
                self.stops[uri].set()
            self.stops[uri] = self.context.Event()
            self.generation[uri] = self.generation.get(uri, 0) + 1
            return self.generation[uri], self.stops[uri]

    def stop_all(self) -> None:
        with self.lock:
            for stop in self.stops.values():
                stop.set()
            self.generation.clear()

    def publish(self, uri: str, generation: int, diagnostics: list[types.Diagnostic]) -> None:
        """Runs on the event loop; drops what a newer check has superseded."""
        if self.current(uri, generation):
            self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri, diagnostics))

    async def check(self, uri: str) -> None:
        path = to_fs_path(uri)
        if path is None:
            return
        generation, stop = self.start_check(uri)
        loop = asyncio.get_running_loop()
        receive, send = self.context.Pipe(duplex=False)
        process = self.context.Process(
            target=check_file, args=(path, self.options, self.solver_cmd, send, stop, self.scheduler)
        )
        process.start()
        send.close()

        def relay() -> None:  # in an executor thread: the check's messages to the event loop
            try:
                while True:
                    found = receive.recv()
                    loop.call_soon_threadsafe(self.publish, uri, generation, [_lsp(d) for d in found])
            except (EOFError, OSError):
                pass
            finally:
                receive.close()
                process.join(timeout=5)

        await loop.run_in_executor(None, relay)


def build_server(
    solver: str = "z3",
    timeout: float = 10.0,
    jobs: int = 1,
    solver_cmd: Sequence[str] = (),
    scheduler: str | None = None,
) -> HoareGpuServer:
    server = HoareGpuServer(solver, timeout, jobs, solver_cmd, scheduler)

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    async def did_open(ls: HoareGpuServer, params: types.DidOpenTextDocumentParams) -> None:
        await ls.check(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    async def did_save(ls: HoareGpuServer, params: types.DidSaveTextDocumentParams) -> None:
        await ls.check(params.text_document.uri)

    @server.feature(types.SHUTDOWN)
    def shutdown(ls: HoareGpuServer, params: None) -> None:
        ls.stop_all()

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: HoareGpuServer, params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        ls.start_check(uri)  # whatever still runs for it is stale
        ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri, []))

    return server


def serve(
    solver: str = "z3",
    timeout: float = 10.0,
    jobs: int = 1,
    solver_cmd: Sequence[str] = (),
    executor: str = "local",
    scheduler: str | None = None,
) -> None:
    """Serve on standard input/output. `executor="dask"`: checks solve on `scheduler`'s
    cluster, or on a local cluster of `jobs` workers started here (ConfigError at once when
    the scheduler cannot be reached, before the editor sees a server)."""
    from .solvers.executor import check_executor

    check_executor(executor, scheduler)
    if executor == "local":
        build_server(solver, timeout, jobs, solver_cmd).start_io()
        return
    from .solvers.dask_executor import DaskExecutor

    with DaskExecutor(scheduler, workers=jobs) as cluster:
        address = scheduler or str(cluster.client().scheduler.address)
        build_server(solver, timeout, jobs, solver_cmd, address).start_io()
