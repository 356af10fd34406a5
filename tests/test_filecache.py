"""The whole-file result cache (`hoaregpu.filecache`): a warm run reads a file's results
without preparing it, and anything its results depend on makes it a miss."""

from __future__ import annotations

import pickle
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from hoaregpu import driver, filecache
from hoaregpu.api.verifying import verify
from hoaregpu.solvers import Outcome

KERNEL = """// a kernel whose postcondition holds ({check} decides whether)
#include "{header}"
/*@ ensures a[threadIdx.x] == {check}; */
__global__ void k(int *a) {{
    a[threadIdx.x] = VALUE;
}}
"""


def _spec(tmp_path: Path, value: int = 1, check: int = 1, name: str = "k.cu") -> Path:
    header = tmp_path / "value.h"
    header.write_text(f"#define VALUE {value}\n", encoding="utf-8")
    spec = tmp_path / name
    spec.write_text(KERNEL.format(header=header.name, check=check), encoding="utf-8")
    return spec


def _summary(result: Any) -> list[tuple[str, str, int, Outcome]]:
    return [(k.name, vc.kind, vc.line, vc.outcome) for k in result.kernels for vc in k.vcs]


@pytest.fixture
def counted_prepare(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The files `driver.prepare` is asked for."""
    calls: list[str] = []
    real = driver.prepare

    def prepare(paths: Any, *args: Any, **kwargs: Any) -> Any:
        calls.extend(paths)
        return real(paths, *args, **kwargs)

    monkeypatch.setattr(driver, "prepare", prepare)
    return calls


def test_a_warm_run_does_not_prepare_the_file(tmp_path: Path, counted_prepare: list[str]) -> None:
    spec = _spec(tmp_path, check=2)  # refuted: the counterexample survives the cache
    cold = verify(str(spec), jobs=1)
    assert counted_prepare == [str(spec)]
    warm = verify(str(spec), jobs=1)
    assert counted_prepare == [str(spec)]  # not prepared again
    assert _summary(warm) == _summary(cold)
    assert Outcome.REFUTED in [vc.outcome for vc in warm.vcs]
    assert [vc.counterexample for vc in warm.vcs] == [vc.counterexample for vc in cold.vcs]
    assert warm.exit_code == cold.exit_code == 1
    assert all(r.result.cached for k in warm.raw.kernels for r in k.results)
    assert verify(str(spec), jobs=1, cache=False).exit_code == 1
    assert counted_prepare == [str(spec)] * 2  # --no-cache prepares


def test_editing_the_file_is_a_miss(tmp_path: Path, counted_prepare: list[str]) -> None:
    spec = _spec(tmp_path, check=1)
    assert verify(str(spec), jobs=1).verified
    _spec(tmp_path, check=2)
    assert verify(str(spec), jobs=1).exit_code == 1
    assert len(counted_prepare) == 2


def test_editing_an_included_header_is_a_miss(tmp_path: Path, counted_prepare: list[str]) -> None:
    spec = _spec(tmp_path, value=1, check=1)
    assert verify(str(spec), jobs=1).verified
    _spec(tmp_path, value=3, check=1)  # the spec's bytes are the same; its header's are not
    assert verify(str(spec), jobs=1).exit_code == 1
    assert len(counted_prepare) == 2


def test_options_that_change_results_are_part_of_the_key(tmp_path: Path, counted_prepare: list[str]) -> None:
    spec = _spec(tmp_path)
    verify(str(spec), jobs=1)
    verify(str(spec), jobs=1, timeout=5.0)
    verify(str(spec), jobs=1, threads=4)
    verify(str(spec), jobs=1, check_races=False)
    verify(str(spec), jobs=1, defines=("UNUSED=1",))
    verify(str(spec), jobs=1, benign_writes="none")
    assert len(counted_prepare) == 6
    verify(str(spec), jobs=2)  # how many workers run does not change an answer
    assert len(counted_prepare) == 6


def test_a_new_hoaregpu_is_a_miss(
    tmp_path: Path, counted_prepare: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = _spec(tmp_path)
    verify(str(spec), jobs=1)
    monkeypatch.setattr(filecache, "tool_fingerprint", lambda: "another hoaregpu")
    verify(str(spec), jobs=1)
    assert len(counted_prepare) == 2


def test_input_errors_and_solver_errors_are_not_stored(tmp_path: Path, counted_prepare: list[str]) -> None:
    bad = tmp_path / "bad.cu"
    bad.write_text("__global__ void k(int *a) { a[0] = ; }\n", encoding="utf-8")
    for _ in range(2):
        assert verify(str(bad), jobs=1).exit_code == 3
    assert counted_prepare == [str(bad)] * 2
    spec = _spec(tmp_path)
    kernels = verify(str(spec), jobs=1, cache=False).raw.kernels
    error = [replace(r, result=replace(r.result, outcome=Outcome.ERROR)) for r in kernels[0].results]
    broken = [replace(kernels[0], results=tuple(error))]
    files = filecache.FileCache("options", 10.0)
    content = filecache.file_hash(str(spec))
    assert content is not None
    files.put(str(spec), broken, content, ())
    assert files.stores == 0 and files.get(str(spec)) is None
    files.put(str(spec), kernels, content, ())
    assert files.stores == 1 and files.get(str(spec)) is not None


def test_an_unreadable_entry_is_a_miss(tmp_path: Path, counted_prepare: list[str]) -> None:
    spec = _spec(tmp_path)
    verify(str(spec), jobs=1)
    entries = list((filecache.default_dir() / "files").rglob("*.pickle"))
    assert len(entries) == 1
    entries[0].write_bytes(b"\x80\x05 truncated")
    assert verify(str(spec), jobs=1).verified
    entries[0].write_bytes(pickle.dumps({"not": "an entry"}))
    assert verify(str(spec), jobs=1).verified
    assert len(counted_prepare) == 3
    assert verify(str(spec), jobs=1).verified  # the last run stored a good entry again
    assert len(counted_prepare) == 3


def test_asking_for_the_prepared_kernels_prepares_them(tmp_path: Path, counted_prepare: list[str]) -> None:
    """The cache keeps no SMT text: `--dump-smt` after a warm run still writes whole scripts."""
    from hoaregpu.cli import main

    spec = _spec(tmp_path)
    verify(str(spec), jobs=1)
    seen: list[str] = []
    verify(
        str(spec), jobs=1, on_prepared=lambda kernels: seen.extend(vc.script for k in kernels for vc in k.vcs)
    )
    assert len(counted_prepare) == 2 and seen and all("(check-sat)" in text for text in seen)
    dump = tmp_path / "smt"
    assert main(["verify", str(spec), "--jobs", "1", "--dump-smt", str(dump)]) == 0
    scripts = list(dump.rglob("*.smt2"))
    assert scripts and all("(check-sat)" in p.read_text() for p in scripts)


def test_a_file_edited_while_it_is_verified_is_stored_under_what_was_parsed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The results belong to the text parsed: an edit saved during the run must not get them."""
    spec = _spec(tmp_path, check=2)  # refuted as parsed
    real = driver.solve

    def solve_then_edit(*args: Any, **kwargs: Any) -> Any:
        out = real(*args, **kwargs)
        _spec(tmp_path, check=1)  # the user saves a fixed version before the run ends
        return out

    monkeypatch.setattr(driver, "solve", solve_then_edit)
    assert verify(str(spec), jobs=1).exit_code == 1
    monkeypatch.setattr(driver, "solve", real)
    assert verify(str(spec), jobs=1).verified  # the fixed text is verified, not given the old results
