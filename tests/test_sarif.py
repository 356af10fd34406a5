"""`verify --sarif`: SARIF 2.1.0 valid against the OASIS schema, one result per refuted or
undecided VC, input error and warning, located where the text report says."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from hoaregpu.cli import main

SPECS = Path(__file__).resolve().parent.parent / "specs"
# the OASIS SARIF 2.1.0 schema (errata01), kept beside the tests: no network in tests
SCHEMA = json.loads((Path(__file__).parent / "data" / "sarif-schema-2.1.0.json").read_text())
BUG = SPECS / "bug_off_by_one.cu"  # expect: failed postcondition:6
GOOD = SPECS / "c_division.cu"  # expect: verified
BARRIER = SPECS / "bug_return_before_barrier.cu"  # a barrier-divergence refutation


def _sarif(tmp_path: Path, *args: str) -> tuple[int, dict[str, Any]]:
    out = tmp_path / "out.sarif"
    code = main(["verify", *args, "--no-cache", "--sarif", str(out)])
    doc = json.loads(out.read_text())
    jsonschema.Draft4Validator(SCHEMA).validate(doc)
    return code, doc


def _fake_solver(tmp_path: Path, answer: str) -> str:
    path = tmp_path / "fake.sh"
    path.write_text(f"#!/bin/sh\ncat > /dev/null\necho {answer}\n")
    path.chmod(0o755)
    return f"fake={path}"


def test_refuted_and_proved(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(SPECS.parent)
    code, doc = _sarif(tmp_path, str(BUG), str(GOOD))
    assert code == 1
    (run,) = doc["runs"]
    assert run["invocations"][0]["exitCode"] == 1
    results = run["results"]
    assert [(r["ruleId"], r["level"]) for r in results] == [("postcondition", "error")]  # proved VCs: none
    (r,) = results
    loc = r["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"] == {"uri": "specs/bug_off_by_one.cu", "uriBaseId": "%SRCROOT%"}
    assert loc["region"]["startLine"] == 6
    assert r["properties"]["outcome"] == "refuted" and r["properties"]["counterexample"]
    assert "counterexample" in r["message"]["text"]
    rules = run["tool"]["driver"]["rules"]
    assert rules[r["ruleIndex"]]["id"] == "postcondition"


def test_kinds_become_rules(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    _, doc = _sarif(tmp_path, str(BARRIER), str(BUG))
    results = doc["runs"][0]["results"]
    kinds = {r["ruleId"] for r in results}
    assert {"barrier-divergence", "postcondition"} <= kinds
    ids = [rule["id"] for rule in doc["runs"][0]["tool"]["driver"]["rules"]]
    assert len(ids) == len(set(ids))
    for r in results:
        assert ids[r["ruleIndex"]] == r["ruleId"]
    # outside the working directory's tree a location is an absolute URI
    artifact = results[0]["locations"][0]["physicalLocation"]["artifactLocation"]
    assert artifact["uri"].startswith("file:///") and "uriBaseId" not in artifact
    # the schema is live: a level SARIF does not know is rejected
    results[0]["level"] = "fatal"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft4Validator(SCHEMA).validate(doc)


def test_undecided_is_a_warning_never_a_proof(tmp_path: Path) -> None:
    fake = _fake_solver(tmp_path, "unknown")
    code, doc = _sarif(tmp_path, str(GOOD), "--solver", "fake", "--solver-cmd", fake)
    assert code == 2
    results = doc["runs"][0]["results"]
    assert results and all(r["level"] == "warning" for r in results)
    assert all("not a proof" in r["message"]["text"] for r in results)
    assert {r["properties"]["outcome"] for r in results} == {"unknown"}


def test_input_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.cu"
    bad.write_text("__global__ void k(int *a) {\n  a[0] = ;\n}\n")
    code, doc = _sarif(tmp_path, str(bad))
    assert code == 3
    (r,) = doc["runs"][0]["results"]
    assert r["ruleId"] == "input-error" and r["level"] == "error"
    assert r["locations"][0]["physicalLocation"]["region"]["startLine"] == 2


def test_sarif_to_stdout_replaces_the_text_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    code = main(["verify", str(BUG), "--no-cache", "--sarif", "-"])
    assert code == 1
    doc = json.loads(capsys.readouterr().out)  # the SARIF log alone: no text report mixed in
    jsonschema.Draft4Validator(SCHEMA).validate(doc)
    assert doc["runs"][0]["results"][0]["ruleId"] == "postcondition"
