"""Writing a `BenchResult`: solvers.md and solvers.json (the Table I-style comparison),
vcs.csv (one row per VC, solver and repeat), cactus.png and cactus.svg."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

from hoaregpu.solvers.benchmark import CLASSES, BenchResult, SolverScore, cactus_points
from hoaregpu.solvers.options import SolverOptions


def _run(scores: list[SolverScore]) -> list[SolverScore]:
    return [s for s in scores if s.skipped is None]


def markdown(result: BenchResult, options: SolverOptions, repeat: int) -> str:
    ran = _run(result.scores)
    lines = [
        "# Solver comparison",
        "",
        f"{len(result.files)} spec files, timeout {options.timeout:g} s per VC, memory "
        f"{options.memory_mb} MB, seed {options.seed}, {repeat} repeat{'s' if repeat != 1 else ''}. "
        "Scored against each spec's `// expect:` line (a file counts its worst repeat); "
        "times are means over repeats.",
        "",
    ]
    if ran:
        lines.append(
            "| result / solver | " + " | ".join(f"{s.solver} {s.version}".strip() for s in ran) + " |"
        )
        lines.append("| --- |" + " ---: |" * len(ran))
        for c in CLASSES:
            lines.append(f"| {c} | " + " | ".join(str(s.counts[c]) for s in ran) + " |")
        lines.append("| VCs decided | " + " | ".join(f"{s.decided}/{s.vcs}" for s in ran) + " |")
        lines.append("| time (s), sum over VCs | " + " | ".join(f"{s.vc_seconds:.2f}" for s in ran) + " |")
        lines.append("| wall time (s) | " + " | ".join(f"{s.wall_seconds:.2f}" for s in ran) + " |")
        lines.append("")
    lines.append("## Disagreements")
    lines.append("")
    if result.disagreements:
        lines += [f"- **DISAGREEMENT** {d}" for d in result.disagreements]
    else:
        lines.append("none: no VC was proved by one solver and refuted by another")
    skipped = [s for s in result.scores if s.skipped is not None]
    if skipped:
        lines += ["", "## Skipped solvers", ""]
        lines += [f"- {s.solver}: {s.skipped}" for s in skipped]
    if result.unsupported:
        lines += ["", "## Not supported (front-end errors)", ""]
        lines += [f"- {f}" for f in result.unsupported]
    wrong = [(s.solver, f) for s in ran for f, c in sorted(s.files.items()) if c == "wrong answers"]
    if wrong:
        lines += ["", "## Wrong answers", ""]
        lines += [f"- {solver}: {f}" for solver, f in wrong]
    return "\n".join(lines) + "\n"


def _field(c: str) -> str:
    return c.replace("/", "_").replace(" ", "_")


def as_json(result: BenchResult, options: SolverOptions, repeat: int) -> dict[str, Any]:
    return {
        "timeout": options.timeout,
        "memory_mb": options.memory_mb,
        "seed": options.seed,
        "repeat": repeat,
        "files": result.files,
        "solvers": [
            {
                "solver": s.solver,
                "version": s.version,
                "skipped": s.skipped,
                **(
                    {} if s.skipped else {c.replace("/", "_").replace(" ", "_"): s.counts[c] for c in CLASSES}
                ),
                "vcs": s.vcs,
                "decided": s.decided,
                "vc_seconds": s.vc_seconds,
                "wall_seconds": s.wall_seconds,
                "files": s.files,
            }
            for s in result.scores
        ],
        "disagreements": result.disagreements,
        "unsupported": result.unsupported,
    }


def write_csv(result: BenchResult, path: Path) -> None:
    with path.open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["file", "kernel", "kind", "line", "solver", "outcome", "seconds", "repeat"])
        for r in result.rows:
            w.writerow([r.file, r.kernel, r.kind, r.line, r.solver, r.outcome, f"{r.seconds:.3f}", r.repeat])


def write_cactus(result: BenchResult, stem: Path, options: SolverOptions) -> list[Path]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.5))
    for s in _run(result.scores):
        points = cactus_points(result.rows, s.solver)
        xs = list(range(1, len(points) + 1))
        ax.plot(xs, points, marker=".", drawstyle="steps-post", label=f"{s.solver} ({len(points)}/{s.vcs})")
    ax.set_xlabel("VCs solved (proved or refuted)")
    ax.set_ylabel("cumulative solver time (s)")
    ax.set_title(f"hoaregpu specs: cactus plot (timeout {options.timeout:g} s per VC)")
    ax.grid(True, alpha=0.3)
    if _run(result.scores):
        ax.legend(loc="upper left")
    fig.tight_layout()
    out = [stem.with_suffix(".png"), stem.with_suffix(".svg")]
    for p in out:
        fig.savefig(p, metadata={"Date": None} if p.suffix == ".svg" else None)
    plt.close(fig)
    return out


def write_all(result: BenchResult, directory: Path, options: SolverOptions, repeat: int) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    md = directory / "solvers.md"
    md.write_text(markdown(result, options, repeat), encoding="utf-8")
    js = directory / "solvers.json"
    js.write_text(json.dumps(as_json(result, options, repeat), indent=2) + "\n", encoding="utf-8")
    vcs = directory / "vcs.csv"
    write_csv(result, vcs)
    return [md, js, vcs, *write_cactus(result, directory / "cactus", options)]
