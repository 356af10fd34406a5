"""`--executor dask` beyond `verify`: `prove` and `check` solve their side conditions as Dask
tasks, and `hoaregpu lsp --executor dask` solves each check's VCs on a cluster it starts once.
Real `distributed` clusters and a real LSP client (pytest-lsp); no mocks."""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import sys
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

import hoaregpu
from hoaregpu.cli import main
from hoaregpu.errors import ConfigError

distributed = pytest.importorskip("distributed", reason="the Dask executor needs `pip install '.[dask]'`")

from hoaregpu.solvers.dask_executor import DaskExecutor  # noqa: E402

SPECS = Path(__file__).resolve().parent.parent / "specs"


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None, silence_logs=50
    ) as c:
        yield c


@pytest.fixture(scope="module")
def scheduler(cluster: Any) -> str:
    return str(cluster.scheduler_address)


def test_prove_on_dask_is_the_local_proof(tmp_path: Path, cluster: Any, scheduler: str) -> None:
    local = hoaregpu.prove(SPECS / "assert_assume.cu", output=tmp_path / "local.proof")
    with distributed.Client(scheduler, set_as_default=False) as client:
        executor = DaskExecutor(client=client)
        remote = hoaregpu.prove(SPECS / "assert_assume.cu", output=tmp_path / "dask.proof", executor=executor)
        # the side conditions went to the cluster as tasks
        solved = client.run_on_scheduler(_solver_tasks_seen)
    assert local.proved and remote.proved
    assert remote.kernels[0].side_conditions == local.kernels[0].side_conditions == 1
    assert solved >= 2
    assert "proved by z3" in (tmp_path / "dask.proof").read_text()


def _solver_tasks_seen(dask_scheduler: Any) -> int:
    """Runs on the scheduler: how many solver tasks (keys `hoaregpu-solve-...`) it has run."""
    prefix = dask_scheduler.task_prefixes.get("hoaregpu-solve")
    return (
        0
        if prefix is None
        else int(
            prefix.state_counts["memory"] + prefix.state_counts["released"] + prefix.state_counts["forgotten"]
        )
    )


def test_prove_refutes_a_planted_bug_on_dask(tmp_path: Path, scheduler: str) -> None:
    proving = hoaregpu.prove(
        SPECS / "bug_off_by_one.cu", output=tmp_path / "bug.proof", executor="dask", scheduler=scheduler
    )
    assert not proving.proved and proving.exit_code == 1
    assert any(p.kind == "refuted" for p in proving.kernels[0].problems)
    assert not (tmp_path / "bug.proof").exists()


def test_check_and_replay_on_dask_from_the_command_line(
    tmp_path: Path, scheduler: str, capsys: pytest.CaptureFixture[str]
) -> None:
    proof = tmp_path / "aa.proof"
    assert hoaregpu.prove(SPECS / "assert_assume.cu", output=proof).proved
    code = main(["check", str(proof), "--replay", "--executor", "dask", "--scheduler", scheduler])
    out = capsys.readouterr().out
    assert "1 side conditions proved" in out
    # --replay also flags a side condition more than 2x slower (exit 2), which a loaded
    # machine can produce; anything else would be a real regression.
    regressions = [line for line in out.splitlines() if "regression:" in line]
    assert all("slower" in line for line in regressions), out
    assert code == (2 if regressions else 0), out
    assert regressions or "nothing regressed" in out


def test_executor_arguments_are_checked_before_any_work(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="--scheduler needs --executor dask"):
        hoaregpu.prove(SPECS / "assert_assume.cu", write=False, scheduler="tcp://127.0.0.1:1")
    with pytest.raises(ConfigError, match="unknown executor"):
        hoaregpu.check(tmp_path, executor="ray")
    assert main(["prove", str(SPECS / "assert_assume.cu"), "--scheduler", "tcp://127.0.0.1:1"]) == 3
    assert main(["lsp", "--scheduler", "tcp://127.0.0.1:1"]) == 3


# ---------------------------------------------------------------- the language server


@pytest_lsp.fixture(
    config=ClientServerConfig(
        server_command=[sys.executable, "-m", "hoaregpu", "lsp", "--executor", "dask", "--jobs", "2"]
    )
)
async def dask_client(lsp_client: LanguageClient) -> AsyncIterator[None]:
    await lsp_client.initialize_session(types.InitializeParams(capabilities=types.ClientCapabilities()))
    yield
    await lsp_client.shutdown_session()


async def _until(
    client: LanguageClient, uri: str, done: Any, seconds: float = 120.0
) -> list[types.Diagnostic]:
    deadline = time.monotonic() + seconds
    while True:
        got = list(client.diagnostics.get(uri, []))
        if done(got):
            return got
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"no such diagnostics for {uri}: {got}")
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(
                client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS), left
            )


@pytest.mark.asyncio
async def test_lsp_solves_on_its_dask_cluster(dask_client: LanguageClient, tmp_path: Path) -> None:
    path = tmp_path / "bug.cu"
    shutil.copy(SPECS / "bug_off_by_one.cu", path)  # expect: failed postcondition:6
    uri = path.as_uri()
    dask_client.text_document_did_open(
        types.DidOpenTextDocumentParams(types.TextDocumentItem(uri, "cuda", 1, path.read_text()))
    )
    got = await _until(dask_client, uri, lambda ds: any(d.code == "postcondition" for d in ds))
    (d,) = [d for d in got if d.code == "postcondition"]
    assert d.severity == types.DiagnosticSeverity.Error and d.range.start.line == 5
    assert "counterexample" in d.message
    assert not any(d.code == "check-error" for d in got)
    # fixed on save: the refutation goes away (a second check, on the same cluster)
    shutil.copy(SPECS / "c_division.cu", path)  # expect: verified
    dask_client.text_document_did_save(types.DidSaveTextDocumentParams(types.TextDocumentIdentifier(uri)))
    await _until(dask_client, uri, lambda ds: not any(d.code == "postcondition" for d in ds))
