"""The result cache: hits start no worker, proofs hold under any budget, undecided answers only
under a budget no larger than theirs, bad files are ignored."""

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


def test_undecided_answers_are_kept_with_their_budget(tmp_path: Path) -> None:
    name, counter = _counting(tmp_path, "unknown")
    cache = ResultCache(tmp_path / "cache")
    task = SolveTask(valid_script(), name)
    [first] = solve_many([task], OPTS, cache=cache)
    assert first.outcome is Outcome.UNKNOWN and not first.cached and _calls(counter) == 1
    [again] = solve_many([task], SolverOptions(timeout=3.0, memory_mb=None), cache=cache)  # less time
    assert again.outcome is Outcome.UNKNOWN and again.cached and _calls(counter) == 1
    assert "cached from a run with a 5 s budget" in again.message  # never passed off as fresh
    [more] = solve_many([task], SolverOptions(timeout=9.0, memory_mb=None), cache=cache)  # more time
    assert not more.cached and _calls(counter) == 2
    [reseeded] = solve_many([task], SolverOptions(timeout=5.0, memory_mb=None, seed=3), cache=cache)
    assert not reseeded.cached and _calls(counter) == 3


def test_solver_errors_are_not_cached(tmp_path: Path) -> None:
    cache = ResultCache(tmp_path / "cache")
    key = cache_key("s", "z3", "")
    cache.put(key, SolverResult(Outcome.ERROR, "z3", 0.1, message="crashed"), OPTS)
    assert cache.get(key, OPTS) is None and cache.stores == 0


def test_an_undecided_answer_never_replaces_a_definitive_one(tmp_path: Path) -> None:
    cache = ResultCache(tmp_path / "cache")
    key = cache_key("s", "z3", "")
    cache.put(key, SolverResult(Outcome.PROVED, "z3", 0.5), OPTS)
    cache.put(key, SolverResult(Outcome.TIMEOUT, "z3", 5.0, message="timeout"), OPTS)
    hit = cache.get(key, OPTS)
    assert hit is not None and hit.outcome is Outcome.PROVED
    # and a proof replaces a stored timeout
    other = cache_key("t", "z3", "")
    cache.put(other, SolverResult(Outcome.TIMEOUT, "z3", 5.0, message="timeout"), OPTS)
    cache.put(other, SolverResult(Outcome.PROVED, "z3", 0.5), OPTS)
    hit = cache.get(other, OPTS)
    assert hit is not None and hit.outcome is Outcome.PROVED


def test_key_depends_on_script_solver_and_version_only() -> None:
    base = cache_key("s", "z3", "4.8")
    others = {cache_key("s2", "z3", "4.8"), cache_key("s", "cvc5", "4.8"), cache_key("s", "z3", "4.9")}
    assert base not in others and len(others) == 3


def test_a_proof_holds_under_any_budget(tmp_path: Path) -> None:
    name, counter = _counting(tmp_path, "unsat")
    cache = ResultCache(tmp_path / "cache")
    task = SolveTask(valid_script(), name)
    solve_many([task], OPTS, cache=cache)
    [r] = solve_many([task], SolverOptions(timeout=7.0, memory_mb=512, seed=2), cache=cache)
    assert r.cached and r.outcome is Outcome.PROVED and _calls(counter) == 1


def test_portfolio_uses_a_members_cached_answer(tmp_path: Path) -> None:
    name, _ = _counting(tmp_path, "unsat")
    cache = ResultCache(tmp_path / "cache")
    script = valid_script()
    solve_many([SolveTask(script, name)], OPTS, cache=cache)
    [r] = solve_many([SolveTask(script, f"z3,{name}")], OPTS, jobs=2, cache=cache)
    assert r.cached and r.outcome is Outcome.PROVED and r.solver == name


def test_corrupt_files_are_ignored(tmp_path: Path) -> None:
    cache = ResultCache(tmp_path / "cache")
    key = cache_key("s", "z3", "")
    cache.put(key, SolverResult(Outcome.PROVED, "z3", 0.5), OPTS)
    assert cache.get(key, OPTS) is not None
    path = next((tmp_path / "cache").rglob(f"{key}.json"))
    for junk in ("{not json", "[]", json.dumps({"key": key, "outcome": "timeout"}), "\x00\xff"):
        path.write_text(junk)
        assert cache.get(key, OPTS) is None
    path.write_text(json.dumps({"key": key, "outcome": "proved", "values": ["x"], "solver": "z3"}))
    assert cache.get(key, OPTS) is None
    bad_budget = {
        "key": key,
        "outcome": "unknown",
        "values": [],
        "solver": "z3",
        "version": "",
        "message": "",
    }
    for budget in (None, [], {"timeout": "x"}, {"timeout": 9.0, "memory_mb": "lots", "seed": 0}):
        path.write_text(json.dumps(bad_budget | {"budget": budget}))
        assert cache.get(key, OPTS) is None
    cache.put(key, SolverResult(Outcome.REFUTED, "z3", 0.5, (1, True, None)), OPTS)
    hit = cache.get(key, OPTS)
    assert hit is not None and hit.values == (1, True, None)


def test_unwritable_cache_is_not_fatal(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    cache = ResultCache(blocker / "cache")  # a folder under a file: cannot be created
    [r] = solve_many([SolveTask(valid_script(), "z3")], OPTS, cache=cache)
    assert r.outcome is Outcome.PROVED and cache.stores == 0
