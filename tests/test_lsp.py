"""`hoaregpu lsp` driven by a real LSP client (pytest-lsp): diagnostics on open and save,
input errors at once, VC results as they arrive, stale checks stopped."""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

SPECS = Path(__file__).resolve().parent.parent / "specs"
SLOW_PIDS = Path(os.environ.get("TMPDIR", "/tmp")) / f"hoaregpu-lsp-slow-{os.getpid()}"

# A solver that never answers in time: it records its pid and sleeps (for the stale-check test).
SLOW = f"#!/bin/sh\necho $$ >> {SLOW_PIDS}\ncat > /dev/null\nsleep 60\necho unknown\n"


def _slow_solver() -> str:
    path = SLOW_PIDS.with_suffix(".sh")
    path.write_text(SLOW)
    path.chmod(0o755)
    return f"slow={path}"


def _config(*extra: str) -> ClientServerConfig:
    return ClientServerConfig(
        server_command=[sys.executable, "-m", "hoaregpu", "lsp", "--timeout", "30", *extra]
    )


@pytest_lsp.fixture(config=_config())
async def client(lsp_client: LanguageClient) -> AsyncIterator[None]:
    await lsp_client.initialize_session(types.InitializeParams(capabilities=types.ClientCapabilities()))
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=_config("--solver", "slow", "--solver-cmd", _slow_solver()))
async def slow_client(lsp_client: LanguageClient) -> AsyncIterator[None]:
    await lsp_client.initialize_session(types.InitializeParams(capabilities=types.ClientCapabilities()))
    yield
    await lsp_client.shutdown_session()


async def _until(
    client: LanguageClient, uri: str, done: object, seconds: float = 60.0
) -> list[types.Diagnostic]:
    """Wait for diagnostics of `uri` that satisfy `done` (a predicate)."""
    deadline = time.monotonic() + seconds
    while True:
        got = list(client.diagnostics.get(uri, []))
        if done(got):  # type: ignore[operator]
            return got
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"no such diagnostics for {uri}: {got}")
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(
                client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS), left
            )


def _open(client: LanguageClient, path: Path) -> str:
    uri = path.as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(types.TextDocumentItem(uri, "cuda", 1, path.read_text()))
    )
    return uri


@pytest.mark.asyncio
async def test_refuted_vc_is_an_error_at_its_clause(client: LanguageClient, tmp_path: Path) -> None:
    path = tmp_path / "bug.cu"
    shutil.copy(SPECS / "bug_off_by_one.cu", path)  # expect: failed postcondition:6
    uri = _open(client, path)
    got = await _until(client, uri, lambda ds: any(d.code == "postcondition" for d in ds))
    (d,) = [d for d in got if d.code == "postcondition"]
    assert d.severity == types.DiagnosticSeverity.Error and d.source == "hoaregpu"
    assert d.range.start.line == 5  # line 6, 0-based
    assert "counterexample" in d.message


@pytest.mark.asyncio
async def test_input_error_at_once_then_fixed_on_save(client: LanguageClient, tmp_path: Path) -> None:
    path = tmp_path / "k.cu"
    path.write_text("__global__ void k(int *a) {\n  a[0] = ;\n}\n")
    uri = _open(client, path)
    got = await _until(client, uri, lambda ds: len(ds) == 1)
    assert got[0].code == "input-error" and got[0].range.start.line == 1
    shutil.copy(SPECS / "c_division.cu", path)  # expect: verified
    client.text_document_did_save(types.DidSaveTextDocumentParams(types.TextDocumentIdentifier(uri)))
    assert await _until(client, uri, lambda ds: ds == []) == []


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.asyncio
async def test_a_newer_save_stops_the_stale_check(slow_client: LanguageClient, tmp_path: Path) -> None:
    """With the slow solver every VC hangs; a save with an input error must publish that
    error and kill the stale check's solver processes, long before their 30 s timeout."""
    client = slow_client
    SLOW_PIDS.unlink(missing_ok=True)
    path = tmp_path / "slow.cu"
    shutil.copy(SPECS / "c_division.cu", path)
    uri = _open(client, path)
    deadline = time.monotonic() + 30
    while not SLOW_PIDS.exists() and time.monotonic() < deadline:  # the solver has started
        await asyncio.sleep(0.1)
    pids = [int(p) for p in SLOW_PIDS.read_text().split()]
    assert pids and all(_alive(p) for p in pids)
    path.write_text("__global__ void k(int *a) {\n  a[0] = ;\n}\n")
    client.text_document_did_save(types.DidSaveTextDocumentParams(types.TextDocumentIdentifier(uri)))
    got = await _until(client, uri, lambda ds: len(ds) == 1 and ds[0].code == "input-error")
    assert got[0].range.start.line == 1
    deadline = time.monotonic() + 10
    while any(_alive(p) for p in pids) and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    assert not any(_alive(p) for p in pids), "the stale check's solvers still run"
