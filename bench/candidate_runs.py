"""Candidate invariants refuted by runs before Houdini (`hoaregpu/candidate_runs.py`).

For every kernel with inferred-invariant candidates among PATHS (files or folders of .cu/.cl;
a GPUVerify test kernel's header gives its launch and defines), it measures: the runs
(`refuted`), Houdini on every candidate (as before the runs existed) and Houdini on the
candidates the runs left. It checks what makes the runs safe to use: no candidate a run
refuted is among Houdini's survivors on all of them (such a candidate would be a true one
dropped), and the survivors are the same both ways (they may differ only where z3's
resource limit decides differently).

Writes bench/results/candidate_runs.json (one row per kernel) and candidate_runs.md, after each
file (marked partial until the last).
Usage: python bench/candidate_runs.py [PATH...] [--name STEM]   (default: specs/)
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from hoaregpu.candidate_runs import refuted
from hoaregpu.driver import kernel_launch, load_kernels
from hoaregpu.errors import HoareGpuError
from hoaregpu.frontend import ClangOptions
from hoaregpu.inputs import spec_files
from hoaregpu.launch import Launch
from hoaregpu.limits import DEFAULT_UNROLL
from hoaregpu.loop_inference import survivors, with_candidates
from hoaregpu.pretty import show_term
from hoaregpu.race_invariants import drop_candidates, houdini
from hoaregpu.suite.header import read_header
from hoaregpu.transform import make_monotonic
from hoaregpu.unroll import unroll

ROOT = Path(__file__).resolve().parent.parent


def launch_and_clang(path: Path) -> tuple[Launch | None, ClangOptions | None]:
    """A GPUVerify test's header flags (`//--blockDim=...`), else nothing."""
    text = path.read_text(errors="replace")
    if not text.startswith("//pass") and not text.startswith("//xfail"):
        return None, None
    header = read_header(text)
    return header.launch(), header.clang_options()


def measure(path: Path) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    try:
        given, clang = launch_and_clang(path)
        kernels = load_kernels(str(path), clang)
    except (HoareGpuError, OSError) as e:
        return [{"file": str(path), "error": type(e).__name__}]
    for kernel in kernels:
        try:
            launch = kernel_launch(kernel, given)
        except HoareGpuError as e:
            rows.append({"file": str(path), "kernel": kernel.name, "error": str(e)[:80]})
            continue
        kernel = replace(kernel, launch=launch)
        program, candidates = with_candidates(*_unrolled(kernel, launch))
        if not candidates:
            continue
        start = time.perf_counter()
        gone = refuted(program, launch, candidates)
        runs = time.perf_counter() - start
        start = time.perf_counter()
        every = houdini(make_monotonic(program), launch, candidates)
        before = time.perf_counter() - start
        rest = {c: f for c, f in candidates.items() if c not in gone}
        start = time.perf_counter()
        after = make_monotonic(drop_candidates(program, gone))
        after = houdini(after, launch, rest) if rest else after
        now = time.perf_counter() - start
        kept_before = {f.span.col for f in survivors(every)}
        kept_after = {f.span.col for f in survivors(after)}
        rows.append(
            {
                "file": str(path),
                "kernel": kernel.name,
                "candidates": len(candidates),
                "refuted": len(gone),
                "runs_s": round(runs, 2),
                "houdini_all_s": round(before, 1),
                "houdini_rest_s": round(now, 1),
                "survivors": len(kept_before),
                "true_refuted": sorted(show_term(candidates[c].term) for c in gone & kept_before),
                "same_survivors": kept_before == kept_after,
                # where z3's resource limit decided differently: kept only without / with the runs
                "lost": sorted(show_term(candidates[c].term) for c in kept_before - kept_after),
                "gained": sorted(show_term(candidates[c].term) for c in kept_after - kept_before),
            }
        )
        print(json.dumps(rows[-1]), flush=True)
    return rows


def _unrolled(kernel: Any, launch: Launch) -> tuple[Any, Any]:
    u = unroll(kernel, launch, DEFAULT_UNROLL)
    return u.kernel, u.missing


def report(rows: list[dict[str, Any]], stopped_after: str | None = None) -> str:
    done = [r for r in rows if "candidates" in r]
    total = {k: sum(r[k] for r in done) for k in ("candidates", "refuted", "survivors")}
    before = sum(r["houdini_all_s"] for r in done)
    after = sum(r["houdini_rest_s"] + r["runs_s"] for r in done)
    wrong = [r for r in done if r["true_refuted"]]
    differ = [r for r in done if not r["same_survivors"]]
    lost = sum(len(r.get("lost", ())) for r in differ)
    gained = sum(len(r.get("gained", ())) for r in differ)
    recorded = differ and all("lost" in r for r in differ)  # (rows of an older run lack them)
    detail = f": {lost} survivors lost, {gained} gained with the runs first" if recorded else ""
    lines = [
        "# Candidate invariants refuted by runs (bench/candidate_runs.py)",
        "",
        *(
            [f"Partial: the run stopped after {stopped_after} (results are written after each file).", ""]
            if stopped_after
            else []
        ),
        f"{len(done)} kernels with candidates; {total['candidates']} candidates, {total['refuted']} "
        f"refuted by runs, {total['survivors']} survivors of Houdini on all.",
        f"Inference time: {before:.0f} s with Houdini on every candidate, {after:.0f} s with the runs first.",
        f"Candidates a run refuted that Houdini kept (must be none): {len(wrong)}.",
        f"Kernels whose survivors differ: {len(differ)}"
        + (f" ({', '.join(r['kernel'] for r in differ)})" if differ else "")
        + detail
        + ".",
        "",
        "| file | kernel | candidates | refuted | kept | runs (s) | Houdini all (s) | Houdini rest (s) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in done:
        name = r["file"].split("testsuite/")[-1]
        lines.append(
            f"| {name} | {r['kernel']} | {r['candidates']} | {r['refuted']} | {r['survivors']} | "
            f"{r['runs_s']} | {r['houdini_all_s']} | {r['houdini_rest_s']} |"
        )
    return "\n".join(lines) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("paths", nargs="*", default=[str(ROOT / "specs")])
    ap.add_argument("--name", default="candidate_runs")
    args = ap.parse_args()
    rows: list[dict[str, Any]] = []
    todo = [Path(p) for p in spec_files(args.paths)]
    for i, path in enumerate(todo):
        rows += measure(path)
        write(rows, args.name, None if i == len(todo) - 1 else str(path))
    print(report(rows))


def write(rows: list[dict[str, Any]], name: str, stopped_after: str | None) -> None:
    """The results so far (a long Houdini on all candidates may outlast a time limit)."""
    out = ROOT / "bench" / "results"
    (out / f"{name}.json").write_text(json.dumps(rows, indent=1) + "\n")
    (out / f"{name}.md").write_text(report(rows, stopped_after))


if __name__ == "__main__":
    main()
