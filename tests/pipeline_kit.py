"""Helpers for the middle-stage tests: kernel source → core kernel → VCs → solver verdicts.

Kernels are parsed with `parse_text` and lowered with `lower_file`; VCs are made by
`generate` in a fresh pySMT environment and decided by `solve_many` (a VC is a validity
question, so the script asserts its negation, exactly as the driver does).
"""

from __future__ import annotations

import os
import shutil
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pysmt.fnode import FNode
from pysmt.shortcuts import Not

from hoaregpu import access_facts, core
from hoaregpu.driver import KernelResult, VerifyOptions, fresh_env, verify
from hoaregpu.frontend import parse_text
from hoaregpu.lower import lower_file
from hoaregpu.smt.expand import ExpandThreadQuantifiers
from hoaregpu.smt.smtlib import script_text
from hoaregpu.solvers import Outcome, SolverOptions, SolveTask, solve_many
from hoaregpu.transform import make_monotonic
from hoaregpu.vc.generate import generate

PATH = "k.cu"
TIMEOUT = 10.0
JOBS = max(1, min(4, os.cpu_count() or 1))

FALLBACK = ("z3-bin", "cvc5") if shutil.which("z3") else ("cvc5",)
DECISIVE = (Outcome.PROVED, Outcome.REFUTED)

PROVED = Outcome.PROVED
REFUTED = Outcome.REFUTED


def source(src: str) -> str:
    """The kernel text as the tests give it: dedented, without the leading blank line."""
    return textwrap.dedent(src).lstrip("\n")


def line_of(src: str, needle: str) -> int:
    """1-based line of the first line of `source(src)` containing `needle`."""
    for n, text in enumerate(source(src).splitlines(), start=1):
        if needle in text:
            return n
    raise AssertionError(f"{needle!r} not in the source")


def lower(src: str) -> core.Kernel:
    """Parse and lower a file holding exactly one kernel (no transform)."""
    (kernel,) = lower_file(parse_text(source(src), PATH))
    return kernel


def lowered(src: str) -> dict[str, core.Kernel]:
    """Parse and lower a file of one or more kernels, by name (no transform)."""
    return {k.name: k for k in lower_file(parse_text(source(src), PATH))}


def verified(tmp_path: Path, src: str, check_races: bool = True) -> dict[str, KernelResult]:
    """`verify` of the source written to TMP/k.cu with z3 (20 s per VC, no cache), by kernel name."""
    path = tmp_path / PATH
    path.write_text(source(src))
    options = VerifyOptions(
        solver="z3", solver_options=SolverOptions(timeout=20.0), cache=False, check_races=check_races
    )
    result = verify([str(path)], options)
    assert not result.errors, [e.render() for e in result.errors]
    return {k.prepared.kernel.name: k for k in result.kernels}


def kernel(src: str) -> core.Kernel:
    """Parse, lower and apply the monotonic-loop transform, as the driver does."""
    return make_monotonic(lower(src))


def decide(formulas: Sequence[FNode], timeout: float = TIMEOUT) -> list[Outcome]:
    """Is each formula valid? (Call inside the pySMT environment that built the formulas.)

    The tests are about the VCs, not one solver's quantifier heuristics: a VC the native z3
    backend leaves undecided is tried again with the z3 binary and cvc5 (sound solvers, so
    a definitive answer from any of them is the VC's truth; test_cross_solver_agreement
    checks that they agree)."""
    scripts = [script_text(Not(f)) for f in formulas]
    outcomes = [Outcome.UNKNOWN] * len(scripts)
    # z3's quantifier heuristics depend on its random seed: a VC one seed leaves unknown,
    # another proves in milliseconds (what z3-bin does; it is missing on a bare machine)
    # (the other seeds get the whole budget: a loaded CI machine, without z3-bin, once left a
    # VC z3 proves in about 3 s undecided by every attempt at a quarter of it)
    attempts = [("z3", timeout / 2, 0), *((name, timeout, 0) for name in FALLBACK), ("z3", timeout, 2)]
    for solver, limit, seed in [*attempts, ("z3", timeout, 3)]:
        todo = [i for i, o in enumerate(outcomes) if o not in DECISIVE]
        if not todo:
            break
        results = solve_many(
            [SolveTask(scripts[i], solver) for i in todo], SolverOptions(timeout=limit, seed=seed), jobs=JOBS
        )
        for i, r in zip(todo, results, strict=True):
            outcomes[i] = r.outcome
    return outcomes


@dataclass(frozen=True)
class Verdict:
    kind: str
    line: int
    col: int
    rule: str
    outcome: Outcome


def verdicts(
    src: str, threads: int | None = None, *, expand: bool = True, transform: bool = True
) -> list[Verdict]:
    """One verdict per VC of the kernel, in generation order (its own VCs, as the driver's:
    without the access facts, which only the race kernel reads)."""
    k = access_facts.without(kernel(src) if transform else lower(src))
    with fresh_env() as env:
        vcs = generate(k, env, threads)
        n = threads if threads is not None else k.fixed_threads
        formulas = [vc.formula for vc in vcs]
        if expand and n is not None:
            walker = ExpandThreadQuantifiers(env)
            formulas = [walker.walk(f) for f in formulas]
        outcomes = decide(formulas)
    return [
        Verdict(vc.kind.value, vc.origin.span.line, vc.origin.span.col, vc.origin.rule, o)
        for vc, o in zip(vcs, outcomes, strict=True)
    ]


def outcomes(src: str, threads: int | None = None, **kw: bool) -> list[Outcome]:
    return [v.outcome for v in verdicts(src, threads, **kw)]


def dag_size(f: FNode) -> int:
    """Number of distinct nodes of a formula DAG (pySMT hash-conses, so shared = identical)."""
    seen: set[int] = set()
    stack = [f]
    while stack:
        g = stack.pop()
        if g.node_id() in seen:
            continue
        seen.add(g.node_id())
        stack.extend(g.args())
        if g.is_function_application():
            stack.append(g.function_name())
    return len(seen)
