"""`hoaregpu bench`, and the solver-layer options of `verify`: --dump-smt, --solver-cmd,
hoaregpu.toml, the result cache, portfolios."""

from __future__ import annotations

import csv
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from hoaregpu.cli import main
from hoaregpu.expectations import Expectation, classify, read_expectation
from hoaregpu.solvers.outcome import Outcome

SPECS = Path(__file__).resolve().parent.parent / "specs"
BUG = str(SPECS / "bug_off_by_one.cu")  # failed postcondition:6
GOOD = str(SPECS / "c_division.cu")  # verified


def _fake(tmp_path: Path, name: str, answer: str) -> str:
    path = tmp_path / f"{name}.sh"
    path.write_text(f"#!/bin/sh\ncat > /dev/null\necho {answer}\n")
    path.chmod(0o755)
    return f"{name}={path}"


def test_read_expectation_and_classify() -> None:
    exp = read_expectation(BUG)
    assert exp == Expectation(frozenset({("postcondition", 6)}))
    assert read_expectation(GOOD) == Expectation(frozenset())
    ok = [("postcondition", 6, Outcome.REFUTED), ("postcondition", 7, Outcome.PROVED)]
    assert classify(exp, ok) == "bugs found"
    assert classify(exp, [("postcondition", 6, Outcome.PROVED)]) == "wrong answers"
    assert classify(exp, [("postcondition", 6, Outcome.TIMEOUT)]) == "unknown/timeout"
    assert classify(Expectation(frozenset()), [("assertion", 3, Outcome.REFUTED)]) == "wrong answers"


def test_bench_writes_table_csv_and_plots(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "results"
    fake = _fake(tmp_path, "yes", "unsat")
    args = ["bench", BUG, GOOD, "--solvers", "z3,yes", "--timeout", "5", "-o", str(out), "--jobs", "2"]
    code = main([*args, "--solver-cmd", fake])
    assert code == 1  # the fake proves the planted bug that z3 refutes: a disagreement
    for name in ("solvers.md", "solvers.json", "vcs.csv", "cactus.png", "cactus.svg"):
        assert (out / name).stat().st_size > 0, name
    assert (out / "cactus.png").read_bytes().startswith(b"\x89PNG")
    assert b"<svg" in (out / "cactus.svg").read_bytes()
    doc = json.loads((out / "solvers.json").read_text())
    by = {s["solver"]: s for s in doc["solvers"]}
    assert by["z3"]["verified_correctly"] == 1 and by["z3"]["bugs_found"] == 1
    assert by["z3"]["wrong_answers"] == 0
    assert by["yes"]["verified_correctly"] == 1 and by["yes"]["wrong_answers"] == 1
    assert by["yes"]["bugs_found"] == 0
    assert any("bug_off_by_one.cu:6" in d and "yes" in d for d in doc["disagreements"])
    table = (out / "solvers.md").read_text()
    assert "| wrong answers | 0 | 1 |" in table and "DISAGREEMENT" in table
    with (out / "vcs.csv").open() as f:
        rows = list(csv.DictReader(f))
    per_solver = [sum(r["solver"] == s for r in rows) for s in ("z3", "yes")]
    assert per_solver[0] == per_solver[1] > 16  # 16 functional VCs, then the race checks
    assert {r["solver"] for r in rows} == {"z3", "yes"} and any(r["kind"] == "data-race" for r in rows)
    assert set(rows[0]) == {"file", "kernel", "kind", "line", "solver", "outcome", "seconds", "repeat"}
    assert "DISAGREEMENT" in capsys.readouterr().err


def test_bench_skips_unavailable_solver(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r"
    missing = "gone=/nonexistent/solver --flag"
    code = main(["bench", GOOD, "--solvers", "gone", "--solver-cmd", missing, "-o", str(out)])
    assert code == 0
    assert "skipping solver gone" in capsys.readouterr().err
    assert "gone: program" in (out / "solvers.md").read_text()


def test_unknown_solver_lists_valid_names(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", GOOD, "--solver", "z3,nosuch"]) == 3
    err = capsys.readouterr().err
    assert "unknown solver 'nosuch'" in err and "cvc5-bin" in err and "portfolio" in err
    assert main(["bench", GOOD, "--solvers", "nosuch"]) == 3


def _verify_json(args: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    main(["verify", "--json", "--no-replay", *args])
    doc: dict[str, object] = json.loads(capsys.readouterr().out)
    return doc


def _vcs(doc: dict[str, object]) -> list[dict[str, object]]:
    kernels = doc["kernels"]
    assert isinstance(kernels, list)
    return [vc for k in kernels for vc in k["vcs"]]


def test_verify_cache_and_no_cache(capsys: pytest.CaptureFixture[str]) -> None:
    first = _vcs(_verify_json([BUG, "--jobs", "2"], capsys))
    assert not any(vc["cached"] for vc in first)
    second = _vcs(_verify_json([BUG, "--jobs", "2"], capsys))
    assert all(vc["cached"] for vc in second)
    assert [vc["outcome"] for vc in first] == [vc["outcome"] for vc in second]
    assert [vc.get("counterexample") for vc in first] == [vc.get("counterexample") for vc in second]
    third = _vcs(_verify_json([BUG, "--jobs", "2", "--no-cache"], capsys))
    assert not any(vc["cached"] for vc in third)


def test_verify_portfolio_and_solver_cmd(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    slow = tmp_path / "slow.sh"
    slow.write_text("#!/bin/sh\ncat > /dev/null\nsleep 30\necho unsat\n")
    slow.chmod(0o755)
    doc = _verify_json([BUG, "--solver", "slow,z3", "--solver-cmd", f"slow={slow}", "--no-cache"], capsys)
    vcs = _vcs(doc)
    assert doc["exit_code"] == 1 and {vc["solver"] for vc in vcs} == {"z3"}
    assert [(vc["kind"], vc["line"]) for vc in vcs if vc["outcome"] == "refuted"] == [("postcondition", 6)]


def test_config_file_solvers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    no = tmp_path / "no.sh"
    no.write_text("#!/bin/sh\ncat > /dev/null\necho sat\n")
    no.chmod(0o755)
    (tmp_path / "hoaregpu.toml").write_text(f'[solvers]\nalwayssat = "{no}"\n')
    monkeypatch.chdir(tmp_path)
    assert main(["verify", GOOD, "--solver", "alwayssat", "--no-cache", "--no-replay"]) == 1
    (tmp_path / "hoaregpu.toml").write_text("[solvers]\nbad = 3\n")
    assert main(["verify", GOOD, "--solver", "z3"]) == 3


def _dump_bug(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    out = tmp_path / "smt"
    main(["verify", BUG, "--dump-smt", str(out), "--no-cache", "--no-replay", "--jobs", "2"])
    capsys.readouterr()
    return out


def test_dump_smt_writes_scripts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = _dump_bug(tmp_path, capsys)
    files = sorted(p.relative_to(out).as_posix() for p in out.rglob("*.smt2"))
    assert all(f.startswith("bug_off_by_one/bug_off_by_one/") for f in files)
    names = [f.rsplit("/", 1)[1] for f in files]
    # The kernel's own 7 VCs first, then its race check and the access invariants inferred
    # for it at the loop (line 14), some with a slice beside (`.slice.smt2`).
    assert names[6] == "07-postcondition-L6.smt2"
    assert any("-data-race-" in n for n in names[7:])
    assert all("-data-race-" in n or "-L14." in n for n in names[7:])
    assert all(n.endswith(".smt2") and n.count(".") in (1, 2) for n in names)


# The z3 executable is Debian's optional package; without it this test skips (the in-process
# z3 of the pip wheel answers every other test). `.ci/run` runs the suite once without it.
@pytest.mark.skipif(shutil.which("z3") is None, reason="z3 binary not installed (apt-get install z3)")
def test_dump_smt_scripts_run_with_the_z3_binary(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = _dump_bug(tmp_path, capsys)
    bug = out / "bug_off_by_one/bug_off_by_one/07-postcondition-L6.smt2"
    answer = subprocess.run(["z3", "-smt2", "-T:20", str(bug)], capture_output=True, text=True, timeout=30)
    assert answer.stdout.split()[0] == "sat"  # the negated VC has a model: refuted
    ok = out / "bug_off_by_one/bug_off_by_one/01-loop-invariant-entry-L10.smt2"
    answer = subprocess.run(["z3", "-smt2", "-T:20", str(ok)], capture_output=True, text=True, timeout=30)
    assert answer.stdout.split()[0] == "unsat"
