"""`hoaregpu suite --sarif FILE` (one SARIF 2.1.0 log of every kernel's findings, validated
against the OASIS schema) and `hoaregpu suite --executor dask` (one task per kernel on a
real `distributed.LocalCluster`; no mocks), on a small suite written here."""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from hoaregpu.cli import main
from hoaregpu.suite.runner import find_tests, run_suite

SCHEMA = json.loads((Path(__file__).parent / "data" / "sarif-schema-2.1.0.json").read_text())

KERNELS = {
    # an assertion GPUVerify expects to fail, refuted at line 6 (-DN=3 from the header)
    "bug/kernel.cu": "//xfail:NOT_ALL_VERIFIED\n//--blockDim=4 --gridDim=1 -DN=3\n"
    "//kernel.cu:5:3: error: this assertion might not hold\n"
    "__global__ void k(int *a) {\n  a[threadIdx.x] = N;\n  __assert(a[threadIdx.x] == N + 1);\n}\n",
    # a pass kernel that holds
    "good/kernel.cu": "//pass\n//--blockDim=4 --gridDim=1\n"
    "__global__ void k(int *a) {\n  a[threadIdx.x] = 1;\n  __assert(a[threadIdx.x] == 1);\n}\n",
    # a pass kernel we refute (a disagreement): a[0] is 1, not 2
    "wrong/kernel.cu": "//pass\n//--blockDim=4 --gridDim=1\n"
    "__global__ void k(int *a) {\n  a[threadIdx.x] = 1;\n  __assert(a[0] == 2);\n}\n",
    # a construct we do not support: an input error at line 4
    "unread/kernel.cl": "//pass\n//--local_size=4 --num_groups=1\n"
    "__kernel void k(__global int *a) {\n  a[0] = get_global_offset(0);\n}\n",
    # no GPUVerify header: not read, with no location of its own
    "headless/kernel.cu": "__global__ void k(int *a) {\n  a[0] = 1;\n}\n",
}


@pytest.fixture(scope="module")
def suite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("suite")
    for name, text in KERNELS.items():
        (root / name).parent.mkdir(parents=True)
        (root / name).write_text(text)
    return root


@pytest.fixture(scope="module")
def local_rows(suite: Path) -> dict[str, Any]:
    return {r.file: r for r in run_suite(find_tests(suite), suite, jobs=2, timeout=120.0)}


def _results_by_file(doc: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for r in doc["runs"][0]["results"]:
        uri = r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        out.setdefault(uri.split("/")[-2], []).append(r)
    return out


def test_suite_sarif_is_valid_and_has_each_kernels_findings(
    suite: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(suite.parent)
    out = tmp_path / "suite.sarif"
    assert main(["suite", suite.name, "--sarif", str(out), "--no-progress", "-j", "2"]) == 1  # wrong/
    doc = json.loads(out.read_text())
    jsonschema.Draft4Validator(SCHEMA).validate(doc)
    run = doc["runs"][0]
    assert run["invocations"][0]["exitCode"] == 1
    by_file = _results_by_file(doc)
    assert "good" not in by_file  # proved VCs give no result
    (bug,) = by_file["bug"]
    loc = bug["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"] == {"uri": f"{suite.name}/bug/kernel.cu", "uriBaseId": "%SRCROOT%"}
    assert (bug["ruleId"], bug["level"], loc["region"]["startLine"]) == ("assertion", "error", 6)
    assert bug["properties"]["counterexample"] and bug["properties"]["agreement"] == "agree"
    (wrong,) = by_file["wrong"]
    assert wrong["properties"]["agreement"] == "disagree" and wrong["properties"]["expected"] == "pass"
    (unread,) = by_file["unread"]
    assert unread["ruleId"] == "input-error"
    assert unread["locations"][0]["physicalLocation"]["region"]["startLine"] == 4
    (headless,) = by_file["headless"]
    assert headless["ruleId"] == "input-error" and "no header" in headless["message"]["text"]
    ids = [rule["id"] for rule in run["tool"]["driver"]["rules"]]
    assert len(ids) == len(set(ids))
    assert all(ids[r["ruleIndex"]] == r["ruleId"] for r in run["results"])


def test_a_kernel_timeout_is_a_finding(suite: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(suite)
    out = tmp_path / "t.sarif"
    main(["suite", "good", "--sarif", str(out), "--kernel-timeout", "0.01", "--no-progress"])
    doc = json.loads(out.read_text())
    jsonschema.Draft4Validator(SCHEMA).validate(doc)
    (r,) = doc["runs"][0]["results"]
    assert (r["ruleId"], r["level"]) == ("kernel-not-verified", "warning")
    assert "timeout" in r["message"]["text"]


def test_sarif_to_stdout_replaces_the_tables(
    suite: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(suite)
    assert main(["suite", "bug", "--sarif", "-", "--no-progress"]) == 0
    doc = json.loads(capsys.readouterr().out)
    jsonschema.Draft4Validator(SCHEMA).validate(doc)
    assert [r["ruleId"] for r in doc["runs"][0]["results"]] == ["assertion"]


# ---------------------------------------------------------------- on Dask

# the SARIF tests above run without Dask; these skip with the reason when it is missing
needs_dask = pytest.mark.skipif(
    importlib.util.find_spec("distributed") is None,
    reason="the Dask executor needs `pip install '.[dask]'`",
)


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """A real cluster reached by address, as `--scheduler` reaches one (workers are threads
    of this process for speed; each kernel still runs in a worker process of its own)."""
    distributed = pytest.importorskip("distributed", reason="the Dask executor needs `pip install '.[dask]'`")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None, silence_logs=50
    ) as cluster:
        yield cluster.scheduler_address


def test_dask_rows_are_the_local_ones_in_order(
    suite: Path, local_rows: dict[str, Any], scheduler: str
) -> None:
    seen: list[str] = []
    rows = run_suite(
        find_tests(suite),
        suite,
        jobs=2,
        timeout=120.0,
        executor="dask",
        scheduler=scheduler,
        on_done=lambda r: seen.append(r.file),
        sarif_root=suite,
    )
    assert [r.file for r in rows] == sorted(KERNELS)  # in file order, whatever the finishing order
    assert sorted(seen) == sorted(KERNELS)  # progress: each kernel once
    for r in rows:
        local = local_rows[r.file]
        assert (r.verdict, r.agreement, r.stage) == (local.verdict, local.agreement, local.stage), r.file
    bug = next(r for r in rows if r.file == "bug/kernel.cu")
    assert bug.sarif is not None and bug.sarif["runs"][0]["results"][0]["ruleId"] == "assertion"


def test_dask_kernel_timeout_holds_on_the_worker(suite: Path, scheduler: str) -> None:
    (row,) = run_suite(
        [suite / "good/kernel.cu"], suite, jobs=1, timeout=0.01, executor="dask", scheduler=scheduler
    )
    assert (row.verdict, row.stage) == ("not read", "timeout")


@needs_dask
def test_command_line_with_a_local_cluster(suite: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["suite", str(suite), "--json", "-j", "2", "--executor", "dask", "--no-progress"]) == 1
    doc = json.loads(capsys.readouterr().out)
    assert doc["summary"]["kernels"] == 5 and doc["summary"]["read"] == 3
    assert doc["summary"]["agreements"]["disagree"] == 1


@needs_dask
def test_executor_errors_are_input_errors(suite: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["suite", str(suite), "--scheduler", "tcp://127.0.0.1:1"]) == 3
    assert "--scheduler needs --executor dask" in capsys.readouterr().err
    code = main(
        ["suite", str(suite), "--executor", "dask", "--scheduler", "tcp://127.0.0.1:1", "--no-progress"]
    )
    assert code == 3
    assert "cannot reach the Dask scheduler" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["run", "test", "bench"])
def test_commands_without_an_executor_refuse_it_and_say_why(
    command: str, suite: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for option in (["--executor", "dask"], ["--scheduler", "tcp://127.0.0.1:1"]):
        assert main([command, str(suite / "good/kernel.cu"), *option]) == 3
        err = capsys.readouterr().err
        assert f"{option[0]} is not available here" in err
        assert "--executor is for verify, prove, check, suite and lsp" in err
