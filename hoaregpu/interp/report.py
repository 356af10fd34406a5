"""Compact text for run and test results: violations first, then the final shared state."""

from __future__ import annotations

import json
from typing import Any

from ..core import Kernel
from .results import FAILED, INADMISSIBLE, OK, RunResult, TestResult, Violation
from .values import Array, State

MAX_CELLS = 24


def _array_text(arr: Array) -> str:
    keys = sorted(arr.cells)
    if keys == [()]:
        return str(arr.cells[()])
    if not keys:
        return f"{{* = {arr.default}}}"
    if all(len(k) == 1 for k in keys) and keys == [(i,) for i in range(keys[0][0], keys[0][0] + len(keys))]:
        vals = [arr.cells[k] for k in keys[:MAX_CELLS]]
        more = ", ..." if len(keys) > MAX_CELLS else ""
        start = "" if keys[0][0] == 0 else f"from {keys[0][0]}: "
        text = f"{start}[{', '.join(map(str, vals))}{more}]"
    else:
        parts = [f"{','.join(map(str, k))}: {arr.cells[k]}" for k in keys[:MAX_CELLS]]
        more = ", ..." if len(keys) > MAX_CELLS else ""
        text = "{" + ", ".join(parts) + more + "}"
    if arr.default != 0:
        text += f" (other cells {arr.default})"
    return text


def state_text(state: State, display: dict[str, str] | None = None, indent: str = "  ") -> str:
    """The shared variables of `state`, one per line."""
    display = display or {}
    lines = [f"{indent}{display.get(n, n)} = {_array_text(a)}" for n, a in sorted(state.shared.items())]
    return "\n".join(lines) if lines else f"{indent}(no shared variables)"


def violation_text(v: Violation, warnings: frozenset[str] = frozenset()) -> str:
    """One violation, compiler style; kinds in `warnings` (e.g. races) are shown as warnings."""
    where = f"{v.span}: " if v.span else ""
    sev = "note" if v.benign else "warning" if v.kind in warnings else "error"
    out = f"{where}{sev}: {v.message} [{v.kind}]"
    if v.other_span is not None:
        out += f"\n    other access at {v.other_span}"
    if v.values:
        shown = ", ".join(f"{k} = {val}" for k, val in v.values[:12])
        out += f"\n    values: {shown}"
    return out


def _display(kernel: Kernel | None) -> dict[str, str]:
    return {d.name: d.display_name for d in kernel.decls} if kernel is not None else {}


def render_run(
    result: RunResult, kernel: Kernel | None = None, warnings: frozenset[str] = frozenset()
) -> str:
    display = _display(kernel)
    head = {
        OK: "ok",
        FAILED: "FAILED",
        INADMISSIBLE: "input not admissible (requires violated)",
    }.get(result.status, result.status)
    if result.status == FAILED and all(v.kind in warnings for v in result.failures):
        head = "ok, with warnings"  # races that are not failures here (exit code 0)
    lines = [
        f"{result.kernel}: {head} — {result.threads} threads, {result.semantics}, seed {result.seed}, "
        f"{result.steps} steps ({result.thread_steps} thread-steps)",
        f"  inputs: {json.dumps(result.inputs, separators=(',', ':'))}",
    ]
    for v in result.violations:
        lines.append(violation_text(v, warnings))
    for n in result.notes:
        lines.append(f"note: {n}")
    if result.final is not None:
        lines.append("final shared state:")
        lines.append(state_text(result.final, display))
    return "\n".join(lines)


def render_test(
    result: TestResult, kernel: Kernel | None = None, warnings: frozenset[str] = frozenset()
) -> str:
    lines = [
        f"{result.kernel}: {'ok' if result.ok else 'FAILED'} — {result.trials} inputs, "
        f"{result.passed} passed, {result.skipped} skipped (not admissible), seed {result.seed}"
    ]
    if result.counterexample is not None:
        ce = result.counterexample
        orig = result.original
        if orig is not None and orig is not ce:
            fewer = f" from {orig.threads} threads to {ce.threads}" if orig.threads != ce.threads else ""
            lines.append(f"counterexample (shrunk in {result.shrink_steps} runs{fewer}):")
        else:
            lines.append("counterexample:")
        lines.append(render_run(ce, kernel, warnings))
    for n in result.notes:
        lines.append(f"note: {n}")
    return "\n".join(lines)


def run_to_json(result: RunResult) -> dict[str, Any]:
    """A JSON-able summary (for `--json` output)."""
    from .values import array_to_json

    return {
        "kernel": result.kernel,
        "status": result.status,
        "threads": result.threads,
        "seed": result.seed,
        "semantics": result.semantics,
        "inputs": result.inputs,
        "steps": result.steps,
        "thread_steps": result.thread_steps,
        "violations": [
            {
                "kind": v.kind,
                "message": v.message,
                "span": str(v.span) if v.span else None,
                "other_span": str(v.other_span) if v.other_span else None,
                "threads": list(v.threads),
                "values": dict(v.values),
                "benign": v.benign,
            }
            for v in result.violations
        ],
        "notes": result.notes,
        "final_shared": (
            {n: array_to_json(a) for n, a in result.final.shared.items()}
            if result.final is not None
            else None
        ),
    }
