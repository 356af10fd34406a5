"""Results as SARIF 2.1.0, the format code-scanning tools read (GitHub code scanning, VS Code's
SARIF viewer).

One run of the tool `hoaregpu`; one rule per VC kind (the ids are the kinds of the text report,
`postcondition`, `barrier-divergence`, ...) and one for each other finding (`input-error`,
`vacuous-precondition`, `unverified-contract`, and the front end's warnings by their tag).
One result per refuted or undecided VC, input error, contradictory precondition and warning;
proved VCs give no result. A refutation carries its counterexample in its message and in
`properties`; an undecided VC says so in its message, so that no reader takes it for a proof.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from . import __version__
from .errors import Span
from .prepared import KernelResult, RunResult, VcResult
from .report import counterexample, races_assumed
from .solvers import Outcome
from .vc.kinds import MESSAGES

SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
SRCROOT = "%SRCROOT%"

# findings that are not VCs: rule id → description
_OTHER_RULES = {
    "input-error": "the input cannot be read: a syntax error or a construct hoaregpu does not support",
    "vacuous-precondition": "the kernel's 'requires' is contradictory, so every VC holds vacuously",
    "unverified-contract": "a called device function's own contract was not verified",
}

_LEVEL = {
    Outcome.REFUTED: "error",
    Outcome.UNKNOWN: "warning",
    Outcome.TIMEOUT: "warning",
    Outcome.ERROR: "error",
}


class _Rules:
    """The run's rules, in the order first used (results refer to them by index)."""

    def __init__(self) -> None:
        self.rules: list[dict[str, Any]] = []
        self.index: dict[str, int] = {}

    def ref(self, rule_id: str, description: str, level: str) -> dict[str, Any]:
        if rule_id not in self.index:
            self.index[rule_id] = len(self.rules)
            name = "".join(part.capitalize() for part in rule_id.replace("_", "-").split("-"))
            self.rules.append(
                {
                    "id": rule_id,
                    "name": name,
                    "shortDescription": {"text": description},
                    "defaultConfiguration": {"level": level},
                }
            )
        return {"ruleId": rule_id, "ruleIndex": self.index[rule_id]}


def _location(span: Span, root: Path, message: str | None = None) -> dict[str, Any]:
    path = Path(span.path)
    try:
        artifact = {"uri": path.resolve().relative_to(root).as_posix(), "uriBaseId": SRCROOT}
    except ValueError:  # outside the source root: an absolute URI
        artifact = {"uri": path.resolve().as_uri()}
    region = {"startLine": max(span.line, 1), "startColumn": max(span.col, 1)}
    loc: dict[str, Any] = {"physicalLocation": {"artifactLocation": artifact, "region": region}}
    if message:
        loc["message"] = {"text": message}
    return loc


def _vc_result(r: VcResult, kernel: str, rules: _Rules, root: Path) -> dict[str, Any] | None:
    """`kernel`: how reports name the kernel ("kernel k", "device function f")."""
    outcome = r.result.outcome
    if outcome is Outcome.PROVED:
        return None
    origin = r.vc.origin
    text = f"{origin.message} ({kernel})"
    props: dict[str, Any] = {
        "outcome": outcome.value,
        "rule": origin.rule,
        "solver": r.result.solver,
        "kernel": kernel,
    }
    if r.violated_by_run:
        assert r.replay is not None
        text += f": a run violates it (the VC is not decided: {outcome.value})"
        props["violatedByRun"] = r.replay.note
    elif outcome is Outcome.REFUTED:
        cex = counterexample(r.vc.queries, r.result.values)
        if cex:
            text += ". " + "; ".join(line.strip() for line in cex)
            props["counterexample"] = [line.strip() for line in cex]
        props["modelChecked"] = r.result.model_checked
        if r.replay is not None:
            props["replay"] = r.replay.note
    else:
        reason = r.result.message or "no reason given"
        text += f": not decided ({outcome.value}: {reason}); this is not a proof"
    if origin.span.context:
        props["unrolled"] = list(origin.span.context)
    return {
        **rules.ref(origin.kind.value, MESSAGES[origin.kind], "error"),
        "level": "error" if r.violated_by_run else _LEVEL[outcome],
        "message": {"text": text},
        "locations": [_location(origin.span, root)],
        "properties": props,
    }


def _kernel_results(k: KernelResult, rules: _Rules, root: Path) -> list[dict[str, Any]]:
    kernel = k.prepared.kernel
    where = kernel.span or Span(k.prepared.path, 1, 1)
    out = []
    for w in kernel.warnings:
        rule = rules.ref(
            w.tag or "warning", "a warning of the front end about what it assumed or left out", "warning"
        )
        out.append(
            {
                **rule,
                "level": "warning",
                "message": {"text": w.message},
                "locations": [_location(w.span, root)],
            }
        )
    if k.vacuous:
        out.append(
            {
                **rules.ref("vacuous-precondition", _OTHER_RULES["vacuous-precondition"], "warning"),
                "level": "warning",
                "message": {
                    "text": f"the precondition of {kernel.what} is contradictory: its VCs hold vacuously"
                },
                "locations": [_location(where, root)],
            }
        )
    for callee in k.unverified_callees:
        out.append(
            {
                **rules.ref("unverified-contract", _OTHER_RULES["unverified-contract"], "warning"),
                "level": "warning",
                "message": {
                    "text": f"{kernel.what} relies on the contract of '{callee}', which was not verified"
                },
                "locations": [_location(where, root)],
            }
        )
    out += [res for r in k.results if (res := _vc_result(r, kernel.what, rules, root)) is not None]
    return out


def render_sarif(run: RunResult, root: Path | None = None) -> dict[str, Any]:
    """The SARIF log of one `verify` run; paths relative to `root` (default: the working directory)."""
    root = (root or Path.cwd()).resolve()
    rules = _Rules()
    results: list[dict[str, Any]] = []
    for err in run.errors:
        results.append(
            {
                **rules.ref("input-error", _OTHER_RULES["input-error"], "error"),
                "level": "error",
                "message": {"text": err.message + (f" ({err.hint})" if err.hint else "")},
                "locations": [_location(err.span, root)],
            }
        )
    for k in run.kernels:
        results += _kernel_results(k, rules, root)
    return _log(
        rules, results, run.exit_code, root, {"assumes": "race-freedom" if races_assumed(run) else "nothing"}
    )


def merge_sarif(
    logs: Sequence[tuple[dict[str, Any], dict[str, Any]]],
    extra: Sequence[tuple[str, str, str, str, dict[str, Any]]],
    exit_code: int,
    root: Path,
) -> dict[str, Any]:
    """One log from several (`hoaregpu suite --sarif`: one per kernel, each from a worker).
    `logs`: (log, properties added to each of its results); `extra`: findings with no log
    of their own, (rule id, description, level, message, properties) located at line 1 of
    `properties["file"]`. Rules are renumbered; the results keep their order."""
    rules = _Rules()
    results: list[dict[str, Any]] = []
    for log, props in logs:
        for run in log["runs"]:
            known = run["tool"]["driver"]["rules"]
            for r in run["results"]:
                rule = known[r["ruleIndex"]]
                ref = rules.ref(
                    rule["id"], rule["shortDescription"]["text"], rule["defaultConfiguration"]["level"]
                )
                results.append({**r, **ref, "properties": {**r.get("properties", {}), **props}})
    for rule_id, description, level, message, props in extra:
        results.append(
            {
                **rules.ref(rule_id, description, level),
                "level": level,
                "message": {"text": message},
                "locations": [_location(Span(props["file"], 1, 1), root)],
                "properties": props,
            }
        )
    return _log(rules, results, exit_code, root)


def _log(
    rules: _Rules,
    results: list[dict[str, Any]],
    exit_code: int,
    root: Path,
    properties: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A SARIF log of one run of hoaregpu."""
    run: dict[str, Any] = {
        "tool": {"driver": {"name": "hoaregpu", "version": __version__, "rules": rules.rules}},
        "originalUriBaseIds": {SRCROOT: {"uri": root.as_uri() + "/"}},
        # input errors are findings: the tool itself ran to the end
        "invocations": [{"executionSuccessful": True, "exitCode": exit_code}],
        "results": results,
    }
    if properties is not None:
        run["properties"] = properties
    return {"$schema": SCHEMA, "version": "2.1.0", "runs": [run]}


def write_sarif(run: RunResult, path: str) -> None:
    write_log(render_sarif(run), path)


def write_log(log: dict[str, Any], path: str) -> None:
    """`path`: a file, or `-` for standard output."""
    text = json.dumps(log, indent=2) + "\n"
    if path == "-":
        print(text, end="")
    else:
        Path(path).write_text(text, encoding="utf-8")
