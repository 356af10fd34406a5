"""The result cache: hits start no worker, only definitive answers are kept, bad files are ignored."""

from __future__ import annotations

import json
from pathlib import Path

from hoaregpu.solvers import Outcome, SolverOptions, SolverResult, SolveTask, solve_many
from hoaregpu.solvers.cache import ResultCache, cache_key

from .fakes import fake_solver, refutable_script, valid_script

OPTS = SolverOptions(timeout=5.0, memory_mb=None)


def _counting(tmp_path: Path, answer: str) -> tuple[str, Path]:
    counter = tmp_path / "calls"
    return fake_solver(tmp_path, f"echo run >> {counter}\necho {answer}", "count"), counter


def _calls(counter: Path) -> int:
    return len(counter.read_text().split()) if counter.exists() else 0


def test_hit_starts_no_worker(tmp_path: Path) -> None:
    name, counter = _counting(tmp_path, "unsat")
    cache = ResultCache(tmp_path / "cache")
    task = SolveTask(valid_script(), name)
    [first] = solve_many([task], OPTS, cache=cache)
    [second] = solve_many([task], OPTS, cache=cache)
    assert first.outcome is second.outcome is Outcome.PROVED
    assert not first.cached and second.cached
    assert _calls(counter) == 1
    [third] = solve_many([task], OPTS)  # no cache given: solved again
    assert not third.cached and _calls(counter) == 2


def test_refuted_values_survive_the_cache(tmp_path: Path) -> None:
    cache = ResultCache(tmp_path / "cache")
    task = SolveTask(refutable_script(), "z3")
    [first] = solve_many([task], OPTS, cache=cache)
    [second] = solve_many([task], OPTS, cache=cache)
    assert second.cached and second.outcome is Outcome.REFUTED
    assert second.values == first.values and second.solver == "z3" and second.version == first.version


def test_undecided_answers_are_not_cached(tmp_path: Path) -> None:
    name, counter = _counting(tmp_path, "unknown")
    cache = ResultCache(tmp_path / "cache")
    for _ in range(2):
        [r] = solve_many([SolveTask(valid_script(), name)], OPTS, cache=cache)
        assert r.outcome is Outcome.UNKNOWN and not r.cached
    assert _calls(counter) == 2 and cache.stores == 0


def test_key_depends_on_every_field() -> None:
    base = cache_key("s", "z3", "4.8", OPTS)
    others = {
        cache_key("s2", "z3", "4.8", OPTS),
        cache_key("s", "cvc5", "4.8", OPTS),
        cache_key("s", "z3", "4.9", OPTS),
        cache_key("s", "z3", "4.8", SolverOptions(timeout=6.0, memory_mb=None)),
        cache_key("s", "z3", "4.8", SolverOptions(timeout=5.0, memory_mb=512)),
        cache_key("s", "z3", "4.8", SolverOptions(timeout=5.0, memory_mb=None, seed=1)),
    }
    assert base not in others and len(others) == 6
    assert cache_key("s", "z3", "4.8", SolverOptions(timeout=5.0, memory_mb=None)) == base


def test_timeout_change_misses(tmp_path: Path) -> None:
    name, counter = _counting(tmp_path, "unsat")
    cache = ResultCache(tmp_path / "cache")
    task = SolveTask(valid_script(), name)
    solve_many([task], OPTS, cache=cache)
    [r] = solve_many([task], SolverOptions(timeout=7.0, memory_mb=None), cache=cache)
    assert not r.cached and _calls(counter) == 2


def test_portfolio_uses_a_members_cached_answer(tmp_path: Path) -> None:
    name, _ = _counting(tmp_path, "unsat")
    cache = ResultCache(tmp_path / "cache")
    script = valid_script()
    solve_many([SolveTask(script, name)], OPTS, cache=cache)
    [r] = solve_many([SolveTask(script, f"z3,{name}")], OPTS, jobs=2, cache=cache)
    assert r.cached and r.outcome is Outcome.PROVED and r.solver == name


def test_corrupt_files_are_ignored(tmp_path: Path) -> None:
    cache = ResultCache(tmp_path / "cache")
    key = cache_key("s", "z3", "", OPTS)
    cache.put(key, SolverResult(Outcome.PROVED, "z3", 0.5))
    assert cache.get(key) is not None
    path = next((tmp_path / "cache").rglob(f"{key}.json"))
    for junk in ("{not json", "[]", json.dumps({"key": key, "outcome": "timeout"}), "\x00\xff"):
        path.write_text(junk)
        assert cache.get(key) is None
    path.write_text(json.dumps({"key": key, "outcome": "proved", "values": ["x"], "solver": "z3"}))
    assert cache.get(key) is None
    cache.put(key, SolverResult(Outcome.REFUTED, "z3", 0.5, (1, True, None)))
    hit = cache.get(key)
    assert hit is not None and hit.values == (1, True, None)


def test_unwritable_cache_is_not_fatal(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    cache = ResultCache(blocker / "cache")  # a folder under a file: cannot be created
    [r] = solve_many([SolveTask(valid_script(), "z3")], OPTS, cache=cache)
    assert r.outcome is Outcome.PROVED and cache.stores == 0
