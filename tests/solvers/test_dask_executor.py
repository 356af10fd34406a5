"""`--executor dask`: the local executor's guarantees on a real Dask cluster (no mocks).

The cluster is a real `distributed.LocalCluster` with two single-threaded workers in this
process (processes=False, for speed): the tasks still go through the scheduler, are
pickled and run by worker threads, and each solver call still runs in its own forked
process. One test runs the command line, whose local cluster has worker processes.
"""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import hoaregpu
from hoaregpu.errors import ConfigError, SolverError
from hoaregpu.solvers import Outcome, SolverOptions, SolveTask, solve_many
from hoaregpu.solvers.cache import ResultCache
from hoaregpu.solvers.dispatch import Stopped

from .fakes import fake_solver, refutable_script, valid_script
from .test_dispatch import FAST, scripted

distributed = pytest.importorskip("distributed", reason="the Dask executor needs `pip install '.[dask]'`")

from hoaregpu.solvers.dask_executor import DaskExecutor  # noqa: E402

SPECS = Path(__file__).resolve().parents[2] / "specs"


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None, silence_logs=50
    )
    with distributed.Client(cluster, set_as_default=False) as c:
        yield c
    cluster.close()


@pytest.fixture
def dask(client: Any) -> DaskExecutor:
    return DaskExecutor(client=client)


def test_same_answers_in_task_order_as_local(dask: DaskExecutor) -> None:
    tasks = scripted("sleep 0.3", "refuted 1 -2", "unknown", "proved", "refuted 7")
    local = solve_many(tasks, FAST, 2)
    remote = dask.solve_many(tasks, FAST)
    assert [r.outcome for r in remote] == [r.outcome for r in local]
    assert [r.values for r in remote] == [(), (1, -2), (), (), (7,)]
    assert remote[2].message == "scripted unknown"


def test_time_and_memory_limits_hold_on_the_worker(dask: DaskExecutor) -> None:
    start = time.monotonic()
    hung, after = dask.solve_many(scripted("sleep 60", "proved"), FAST)
    assert hung.outcome is Outcome.TIMEOUT and hung.message == "timeout after 1.0 s"
    assert after.outcome is Outcome.PROVED
    assert time.monotonic() - start < FAST.timeout + 5.0
    (hog,) = dask.solve_many(scripted("hog"), SolverOptions(timeout=5.0, memory_mb=512))
    assert hog.outcome is Outcome.ERROR and "512 MB" in hog.message


def test_solver_crash_is_an_error_result(dask: DaskExecutor) -> None:
    crashed, after = dask.solve_many(scripted("segv", "proved"), FAST)
    assert crashed.outcome is Outcome.ERROR and "SIGSEGV" in crashed.message
    assert after.outcome is Outcome.PROVED


def test_unknown_solver_raises_before_any_task(dask: DaskExecutor) -> None:
    with pytest.raises(ConfigError, match="unknown solver"):
        dask.solve_many([SolveTask("(check-sat)", "no-such-solver")], FAST)


def test_solver_missing_on_the_worker_is_raised(dask: DaskExecutor, tmp_path: Path) -> None:
    name = fake_solver(tmp_path, "echo unsat")
    for f in tmp_path.glob("fake*.sh"):
        f.unlink()  # registered, but its command no longer exists
    with pytest.raises(SolverError, match="not available"):
        dask.solve_many([SolveTask(valid_script(), name)], FAST)


def test_user_commands_and_model_check_run_on_the_worker(dask: DaskExecutor, tmp_path: Path) -> None:
    good = fake_solver(tmp_path, "printf 'sat\\n((x 5))\\n((define-fun x () Int 5))\\n'")
    # x = -5 does not satisfy x > 0: the worker's model check turns the refutation into an error
    wrong = fake_solver(tmp_path, "printf 'sat\\n((x -5))\\n((define-fun x () Int (- 5)))\\n'")
    ok, bad = dask.solve_many(
        [SolveTask(refutable_script(), good), SolveTask(refutable_script(), wrong)], FAST
    )
    assert ok.outcome is Outcome.REFUTED and ok.values == (5,) and ok.model_checked
    assert bad.outcome is Outcome.ERROR and "does not satisfy the VC" in bad.message


def test_cache_is_merged_into_the_clients(dask: DaskExecutor, tmp_path: Path) -> None:
    counter = tmp_path / "runs"
    name = fake_solver(tmp_path, f"echo run >> {counter}; echo unsat")
    cache = ResultCache(tmp_path / "cache")
    tasks = [SolveTask(valid_script(), name)]
    (first,) = dask.solve_many(tasks, FAST, cache=cache)
    assert first.outcome is Outcome.PROVED and not first.cached and cache.stores == 1
    (again,) = dask.solve_many(tasks, FAST, cache=cache)
    assert again.outcome is Outcome.PROVED and again.cached
    assert counter.read_text().count("run") == 1  # the second run started no solver
    (local,) = solve_many(tasks, FAST, cache=ResultCache(tmp_path / "cache"))
    assert local.cached  # the local executor reads what the cluster stored


def test_progress_and_stop(dask: DaskExecutor) -> None:
    seen: list[int] = []
    dask.solve_many(scripted("proved", "sleep 0.2", "unknown"), FAST, on_result=lambda i, _r: seen.append(i))
    assert sorted(seen) == [0, 1, 2]
    stop = threading.Event()
    threading.Timer(0.5, stop.set).start()
    start = time.monotonic()
    with pytest.raises(Stopped):
        dask.solve_many(scripted("sleep 30", "sleep 30", "sleep 30"), SolverOptions(timeout=60), stop=stop)
    assert time.monotonic() - start < 5.0
    # the cluster is free again: the stopped tasks' solvers were killed, not left running
    (after,) = dask.solve_many(scripted("proved"), FAST)
    assert after.outcome is Outcome.PROVED
    assert time.monotonic() - start < 8.0


def test_api_verify_on_the_cluster_matches_local(dask: DaskExecutor) -> None:
    files = [SPECS / "bug_off_by_one.cu", SPECS / "c_division.cu"]
    local = hoaregpu.verify(files, cache=False, replay=False, jobs=2)
    progress: list[str] = []
    remote = hoaregpu.verify(
        files, cache=False, replay=False, executor=dask, on_vc=lambda k, _vc, _r: progress.append(k.path)
    )
    assert len(progress) == len(remote.vcs)
    assert hoaregpu.DaskExecutor is DaskExecutor  # exported lazily (PEP 562)
    assert [(v.file, v.line, v.kind, v.outcome) for v in remote.vcs] == [
        (v.file, v.line, v.kind, v.outcome) for v in local.vcs
    ]
    assert remote.exit_code == local.exit_code == 1  # the planted off-by-one is refuted
    assert [v.kind for v in remote.failures] == ["postcondition"]


def test_unreachable_scheduler_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="cannot reach the Dask scheduler"):
        DaskExecutor("tcp://127.0.0.1:1", connect_timeout=1.0).solve_many(scripted("proved"), FAST)
    with pytest.raises(ConfigError, match="needs --executor dask"):
        hoaregpu.verify(SPECS / "c_division.cu", scheduler="tcp://127.0.0.1:1")


def test_command_line_with_a_local_cluster(tmp_path: Path) -> None:
    out = subprocess.run(
        [
            *(sys.executable, "-m", "hoaregpu", "verify", "--executor", "dask", "-j", "2", "--no-cache"),
            *(str(SPECS / "bug_off_by_one.cu"), str(SPECS / "c_division.cu")),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert out.returncode == 1, out.stderr
    assert "bug_off_by_one.cu:6" in out.stdout and "Traceback" not in out.stderr
    assert "2 kernels: 1 verified, 1 failed" in out.stdout


def test_forking_stays_allowed_until_the_last_overlapping_task_ends() -> None:
    # a Dask worker with threads runs tasks side by side: the first one out must not give
    # the daemon flag back while another one still starts solver processes
    import multiprocessing

    from hoaregpu.solvers.dask_executor import _forking_allowed

    config = vars(multiprocessing.current_process())["_config"]
    saved = config.get("daemon")
    config["daemon"] = True
    try:
        first, second = _forking_allowed(), _forking_allowed()
        first.__enter__()
        second.__enter__()
        first.__exit__(None, None, None)
        assert config["daemon"] is False  # the second task is still running
        second.__exit__(None, None, None)
        assert config["daemon"] is True
    finally:
        if saved is None:
            config.pop("daemon", None)
        else:
            config["daemon"] = saved
