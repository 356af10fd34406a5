"""Rendering results: compiler-style text lines, or one JSON document."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from . import core
from .errors import CONSTANT_INITIALISER
from .expectations import mismatches, read_expectation
from .grid import ignored_sizes
from .loop_inference import survivors
from .prepared import KernelResult, PreparedKernel, RunResult, VcResult
from .pretty import show_term
from .race_instrument import Site
from .race_report import race_note
from .solvers import Outcome
from .solvers.outcome import Value
from .unroll import MissingInvariant
from .vc.kinds import VcKind
from .vc.queries import Query

RACE_BANNER = (
    "hoaregpu: --assume-race-free: results assume the kernels are free of data races "
    "(without the option `verify` proves it; `hoaregpu test` detects them at run time)"
)


def races_assumed(run: RunResult) -> bool:
    """Some kernel's verdict assumes race-freedom (`--assume-race-free`: no race checks)."""
    return any(not k.prepared.races_checked for k in run.kernels)


_SEVERITY = {
    Outcome.REFUTED: "error",
    Outcome.UNKNOWN: "warning",
    Outcome.TIMEOUT: "warning",
    Outcome.ERROR: "error",
}


def _show_value(v: Value) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return "?" if v is None else str(v)


def counterexample(queries: Sequence[Query], values: Sequence[Value]) -> list[str]:
    """`note:` lines naming the thread count, the failing thread and indices, and the cells read."""
    if len(values) != len(queries):
        return []
    head: list[str] = []
    cells: list[str] = []
    for q, v in zip(queries, values, strict=True):
        if q.replay:  # only for replaying the counterexample
            continue
        if q.state is None:
            if q.label:
                head.append(f"{q.label} = {_show_value(v)}")
            continue
        if not q.arg_queries and q.thread_arg is False:
            name = q.label
        else:
            args = [_show_value(values[i]) for i in q.arg_queries]
            if q.thread_arg:
                thread, args = args[0], args[1:]
                name = f"{q.label} @ {thread}" + "".join(f"[{a}]" for a in args)
            else:
                name = q.label + "".join(f"[{a}]" for a in args)
        cells.append(f"{name} = {_show_value(v)} ({q.state})")
    lines = []
    if head:
        lines.append("counterexample: " + ", ".join(head))
    if cells:
        lines.append("  " + "; ".join(cells))
    return lines


def vc_lines(
    r: VcResult,
    missing: Sequence[MissingInvariant] = (),
    also: Sequence[VcResult] = (),
    race_sites: Mapping[int, Site] | None = None,
) -> list[str]:
    """Nothing for a proved VC; an error or warning line with notes otherwise. `missing`: the
    kernel's loops taken with the invariant `true`; `also`: VCs of the same clause in other
    unrolled iterations with the same outcome (one note instead of repeated errors)."""
    outcome = r.result.outcome
    if outcome is Outcome.PROVED:
        return []
    origin = r.vc.origin
    text = origin.message
    said = f"{outcome.value}: {r.result.message or 'no reason given'}"
    severity = _SEVERITY[outcome]
    if r.violated_by_run:  # the clause is shown false by a run, the VC stays the solver's
        text, severity = f"{text}: a run violates it (the VC is not decided: {said})", "error"
    elif outcome is not Outcome.REFUTED:
        text = f"{text}: not decided ({said})"
    lines = [f"{origin.span}: {severity}: {text} [{origin.kind.value}]"]
    if origin.span.context:
        lines.append(f"note: in {', '.join(origin.span.context)}")
    if also:
        others = "; ".join(", ".join(a.vc.origin.span.context) for a in also)
        lines.append(f"note: likewise {outcome.value} in {others}")
    lines += [
        f"note: the loop at line {m.span.line} has no 'loop invariant'; the one it was taken with "
        "(`true` or what was inferred) may be too weak for this VC"
        for m in missing
        if _downstream(r, m) and not (r.replay is not None and r.replay.confirmed)
    ]
    if r.violated_by_run:
        assert r.replay is not None
        lines.append(f"note: {r.replay.note} (a random run, not a solver's model)")
    elif outcome is Outcome.REFUTED:
        lines += [f"note: {line}" for line in counterexample(r.vc.queries, r.result.values)]
        if origin.kind is VcKind.DATA_RACE and race_sites:
            lines += [f"note: {line}" for line in race_note(r.vc.queries, r.result.values, race_sites)]
        if not r.result.model_checked:
            why = r.result.model_check.removeprefix("not checked: ") or "no check recorded"
            lines.append(
                f"note: {r.result.solver}'s model was not checked against the VC ({why}); "
                "the counterexample is the solver's word"
            )
        if r.replay is not None:
            lines.append(f"note: {r.replay.note}")
    lines.append(f"note: by {origin.rule}, checked with {r.result.solver}")
    return lines


def _downstream(r: VcResult, loop: MissingInvariant) -> bool:
    """Whether the VC may depend on what the loop did: it stands after the loop's start, or is
    a postcondition or the preservation of a loop invariant (which may enclose the loop)."""
    origin = r.vc.origin
    if origin.kind in (VcKind.POSTCONDITION, VcKind.LOOP_INVARIANT_PRESERVED):
        return True
    return origin.span.path == loop.span.path and origin.span.line >= loop.span.line


def _inferred(k: KernelResult) -> dict[tuple[str, int], list[str]]:
    """The invariants inferred for the kernel's loops, by the loop's file and line."""
    out: dict[tuple[str, int], list[str]] = {}
    for f in survivors(k.prepared.kernel):
        out.setdefault((f.span.path, f.span.line), []).append(show_term(f.term))
    return out


def missing_invariant_lines(k: KernelResult) -> list[str]:
    """A warning per loop without invariant that was not unrolled, when some VC of the kernel
    is not proved (a kernel verified with `true` as the invariant is verified: `true` is sound),
    with the invariants inferred for it (`hoaregpu.loop_inference`)."""
    if all(r.result.outcome is Outcome.PROVED for r in k.results):
        return []
    inferred = _inferred(k)
    lines = []
    for m in k.prepared.missing_invariants:
        own = inferred.get((m.span.path, m.span.line), [])
        taken = "with the invariants inferred for it" if own else "as `true`"
        warning = f"this loop has no 'loop invariant', so it was taken {taken}"
        lines.append(f"{m.span}: warning: {warning} [missing-invariant]")
        if own:
            lines.append(f"note: inferred and proved: {', '.join(own)}")
        lines.append(f"note: it was not unrolled because {m.reason}")
        lines.append(
            "note: write a 'loop invariant' before the loop, or give it a trip count that is a "
            "constant independent of the thread to have it unrolled"
        )
    return lines


def grouped_vc_lines(k: KernelResult) -> list[str]:
    """`vc_lines` of the kernel's VCs; VCs of one clause in several unrolled iterations with
    one outcome are shown once, with a note listing the other iterations."""
    groups: dict[tuple[object, ...], list[VcResult]] = {}
    for r in k.results:
        o = r.vc.origin
        if r.result.outcome is Outcome.PROVED:
            continue
        key = (o.kind, o.span.path, o.span.line, o.span.col, r.result.outcome) if o.span.context else (id(r),)
        groups.setdefault(key, []).append(r)
    lines: list[str] = []
    missing = k.prepared.missing_invariants
    for group in groups.values():
        lines += vc_lines(group[0], missing, group[1:], k.prepared.race_sites)
    return lines


def vacuity_lines(k: KernelResult) -> list[str]:
    """A warning when `requires` is contradictory: then every VC holds, vacuously."""
    if not k.vacuous:
        return []
    kernel = k.prepared.kernel
    where = kernel.requires[0].span if kernel.requires else kernel.span
    return [
        f"{where}: warning: the precondition is contradictory: every VC of kernel {kernel.name} "
        "holds vacuously [vacuous-precondition]",
        "note: no initial state satisfies the `requires` clauses (with the thread count); "
        "the kernel is not reported as verified",
    ]


def launch_lines(k: KernelResult) -> list[str]:
    """A note when the command line gives a size to a coordinate the kernel never reads:
    the model keeps size 1 there (`hoaregpu.grid`), so the verdict is about one block/row."""
    ignored = ignored_sizes(k.prepared.kernel, k.prepared.launch)
    if not ignored:
        return []
    where = k.prepared.kernel.span or k.prepared.path
    races = ""
    if k.prepared.races_checked and any(x.startswith("gridDim") for x in ignored):
        races = " (the race checks of global memory keep the blocks: races.with_blocks)"
    return [
        f"{where}: note: kernel {k.prepared.kernel.name} reads neither the index nor the size of "
        f"{', '.join(ignored)} (given on the command line): it is verified for size 1 there{races} [launch]"
    ]


def race_block_lines(k: KernelResult) -> list[str]:
    """A hint when a race VC of a kernel that reads no block index is not proved: its race
    checks took two blocks (hoaregpu.races.with_blocks), which a one-block kernel rules out."""
    program = k.prepared.race_program
    if program is None or not any(
        r.vc.origin.kind is VcKind.DATA_RACE and r.result.outcome is not Outcome.PROVED for r in k.results
    ):
        return []
    kept = sorted((c for c in program[0].kept if c.block), key=lambda c: c.axis)
    where = k.prepared.kernel.span or k.prepared.path
    hint = ""
    if k.prepared.launch.grid[0] is None and any(c.axis == 0 for c in kept):
        hint = "; a kernel launched as one block says so: `requires gridDim.x == 1;` (or --gridDim 1)"
    return [
        f"{where}: note: kernel {k.prepared.kernel.name} reads no {' nor '.join(c.name for c in kept)}, "
        f"so its blocks access the same global cells: its race checks take two blocks there{hint} [launch]"
    ]


def _assumes(s: core.Stmt) -> list[core.Assume]:
    """The `assume`s of a kernel (not a barrier invariant's cut: its clauses were proved)."""
    return [x for x in core.statements(s) if isinstance(x, core.Assume) and not x.forget]


def _initialisers(kernel: core.Kernel) -> list[tuple[core.Formula, str]]:
    """The kernel's `requires` that state `__constant__` initialisers (frontend/filescope.py),
    with what each states."""
    return [
        (f, note) for f in kernel.requires for note in f.span.context if note.startswith(CONSTANT_INITIALISER)
    ]


def assumption_lines(k: KernelResult) -> list[str]:
    """A note per `assume` clause: the kernel's verdict is conditional on it (spec language §3:
    an assumption is taken as true and reported as such; a false one makes VCs hold vacuously)."""
    kernel = k.prepared.kernel
    lines = [
        f"{a.formula.span}: note: the verdict of kernel {kernel.name} assumes this clause "
        "without proving it [assumption]"
        for a in _assumes(kernel.body)
        if a.contract is None  # a callee's `ensures`: see unverified_callees
    ]
    lines += [
        f"{f.span}: note: the verdict of kernel {kernel.name} assumes that {what} holds at the launch "
        "(a host that overwrites it, with cudaMemcpyToSymbol, launches a kernel the proof does not "
        "cover) [assumption]"
        for f, what in _initialisers(kernel)
    ]
    lines += [
        f"{kernel.span or k.prepared.path}: warning: kernel {kernel.name} calls '{f}' through its "
        f"contract, which is not verified: the kernel is not reported as verified [unverified-contract]"
        for f in k.unverified_callees
    ]
    return lines


def kernel_summary(k: KernelResult) -> str:
    counts = Counter(r.result.outcome for r in k.results)
    parts = [f"{n} {o.value}" for o, n in sorted(counts.items(), key=lambda x: list(Outcome).index(x[0]))]
    runs = sum(r.violated_by_run for r in k.results)
    if runs:
        parts.append(f"{runs} of them violated by a run")
    detail = ", ".join(parts) if parts else "no VCs"
    return f"{k.prepared.kernel.what} ({k.prepared.path}): {k.verdict} ({detail})"


def overall_summary(run: RunResult) -> str:
    verdicts = Counter(k.verdict for k in run.kernels)
    outcomes = Counter(r.result.outcome for k in run.kernels for r in k.results)
    kparts = [f"{verdicts[v]} {v}" for v in ("verified", "failed", "unknown", "vacuous") if verdicts[v]]
    vparts = [f"{outcomes[o]} {o.value}" for o in Outcome if outcomes[o]]
    nk = len(run.kernels)
    nv = sum(outcomes.values())
    text = f"{nk} kernel{'s' if nk != 1 else ''}: {', '.join(kparts) or 'none'}; "
    text += f"{nv} VC{'s' if nv != 1 else ''}: {', '.join(vparts) or 'none'}"
    if run.errors:
        text += f"; {len(run.errors)} input error{'s' if len(run.errors) != 1 else ''}"
    return text


def invariant_lines(prepared: Sequence[PreparedKernel]) -> list[str]:
    """`verify --show-invariants`: the loop invariants inferred for the race checks that were
    proved and used (hoaregpu.race_invariants), one line each under its loop's line."""
    lines: list[str] = []
    for k in prepared:
        if not k.races_checked:
            lines.append(f"{k.path}: {k.kernel.name}: no invariants inferred (--assume-race-free)")
            continue
        for span, text in k.inferred_invariants:
            lines.append(f"{span.path}:{span.line}: inferred loop invariant: {text}")
        if not k.inferred_invariants:
            lines.append(f"{k.path}: {k.kernel.name}: no loop invariant inferred")
    return lines


def render_text(run: RunResult) -> str:
    lines = [RACE_BANNER] if races_assumed(run) else []
    for e in run.errors:
        lines.append(e.render())
    for k in run.kernels:
        lines += [w.render() for w in k.prepared.kernel.warnings]
        lines += vacuity_lines(k)
        lines += launch_lines(k)
        lines += race_block_lines(k)
        lines += assumption_lines(k)
        lines += missing_invariant_lines(k)
        lines += grouped_vc_lines(k)
    for k in run.kernels:
        lines.append(kernel_summary(k))
    lines.append(overall_summary(run))
    return "\n".join(lines)


def _vc_json(r: VcResult) -> dict[str, Any]:
    o = r.vc.origin
    out: dict[str, Any] = {
        "kind": o.kind.value,
        "file": o.span.path,
        "line": o.span.line,
        "col": o.span.col,
        "rule": o.rule,
        "message": o.message,
        "outcome": r.result.outcome.value,
        "solver": r.result.solver,
        "solver_version": r.result.version,
        "seconds": round(r.result.seconds, 4),
        "cached": r.result.cached,
    }
    if r.result.message:
        out["reason"] = r.result.message
    if o.span.context:
        out["unrolled"] = list(o.span.context)
    if r.violated_by_run:
        assert r.replay is not None
        out["violated_by_run"] = r.replay.to_json()  # the VC undecided, its clause false in a run
    elif r.result.outcome is Outcome.REFUTED:
        out["counterexample"] = counterexample(r.vc.queries, r.result.values)
        out["model_check"] = r.result.model_check or "not checked"
        if r.replay is not None:
            out["replay"] = r.replay.to_json()
    return out


def render_json(run: RunResult) -> str:
    doc = {
        "assumes": "race-freedom" if races_assumed(run) else "nothing",
        "exit_code": run.exit_code,
        "errors": [
            {"file": e.span.path, "line": e.span.line, "col": e.span.col, "message": e.message}
            for e in run.errors
        ],
        "kernels": [
            {
                "name": k.prepared.kernel.name,
                "file": k.prepared.path,
                "verdict": k.verdict,
                "threads": k.prepared.threads,
                "assumptions": [str(a.formula.span) for a in _assumes(k.prepared.kernel.body)]
                + [str(f.span) for f, _ in _initialisers(k.prepared.kernel)],
                "warnings": [
                    {"file": w.span.path, "line": w.span.line, "col": w.span.col, "message": w.message}
                    | {"tag": w.tag}
                    for w in k.prepared.kernel.warnings
                ],
                "frontend_seconds": round(k.prepared.frontend_seconds, 4),
                "loops_without_invariant": [
                    {
                        "line": m.span.line,
                        "col": m.span.col,
                        "reason": m.reason,
                        "inferred": _inferred(k).get((m.span.path, m.span.line), []),
                    }
                    for m in k.prepared.missing_invariants
                ],
                "vcs": [_vc_json(r) for r in k.results],
            }
            for k in run.kernels
        ],
        "summary": overall_summary(run),
    }
    return json.dumps(doc, indent=2)


def expectation_report(run: RunResult, solver: str) -> tuple[list[str], bool]:
    """Each file's verdicts against its `// expect:` line: lines to print, and whether all match."""
    by_file: dict[str, list[KernelResult]] = {}
    for k in run.kernels:
        by_file.setdefault(k.prepared.path, []).append(k)
    lines: list[str] = []
    met = 0
    for path, kernels in by_file.items():
        exp = read_expectation(path)
        if exp is None:
            lines.append(f"{path}:1:1: error: no `// expect:` line (see specs/README.md) [expectation]")
            continue
        outcomes = [
            (r.vc.origin.kind.value, r.vc.origin.span.line, r.result.outcome)
            for k in kernels
            for r in k.results
        ]
        results = [r for k in kernels for r in k.results]
        violated = [(r.vc.origin.kind.value, r.vc.origin.span.line) for r in results if r.violated_by_run]
        problems = mismatches(exp, outcomes, solver, violated)
        if any(k.vacuous for k in kernels):
            problems.append("the precondition is contradictory")
        if problems:
            differ = "; ".join(problems)
            lines.append(f"{path}:1:1: error: verdicts differ from the expectation: {differ} [expectation]")
        else:
            met += 1
    # a file that could not be read is a file not as expected (its error is printed above)
    failed_input = sorted({e.span.path for e in run.errors} - set(by_file))
    for path in failed_input:
        lines.append(f"{path}:1:1: error: no verdicts: an input error (above) [expectation]")
    total = len(by_file) + len(failed_input)
    lines.append(f"expectations: {met} of {total} files as expected")
    return lines, met == total
