"""How much of the GPUVerify test suite hoaregpu reads: parsed by the front end and lowered
to the core language (not yet verified), CUDA (`.cu`) and OpenCL (`.cl`) kernels.

Run on a local copy of the suite (never copied into this repository), e.g. after fetching
mc-imperial/gpuverify: `python bench/gpuverify_read.py /path/to/gpuverify/testsuite`.
Writes bench/results/gpuverify_read.{json,md}: per kernel the outcome (read, unsupported
construct, clang error, other input error, internal error) and a table of what blocks.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import Counter
from pathlib import Path

from hoaregpu.errors import SpecError, UnsupportedError
from hoaregpu.frontend import ClangOptions, parse_file
from hoaregpu.lower import lower_file

RESULTS = Path(__file__).parent / "results"


def header_defines(path: Path) -> tuple[str, ...]:
    """`-DNAME=VALUE` from the kernel's second header line (GPUVerify's flags line)."""
    lines = path.read_text(encoding="utf-8", errors="replace").splitlines()[:3]
    flags = " ".join(line[2:] for line in lines if line.startswith("//"))
    return tuple(re.findall(r"-D\s*(\S+)", flags))


def classify(path: Path) -> tuple[str, str]:
    try:
        lower_file(parse_file(str(path), ClangOptions(defines=header_defines(path))))
    except UnsupportedError as exc:
        return "unsupported", _construct(exc.construct)
    except SpecError as exc:
        if (exc.hint or "").startswith("reported by clang"):  # some with advice after it
            return "clang error", _clang_message(exc.message)
        return "input error", re.sub(r"'[^']*'", "'…'", exc.message)[:60]
    except Exception as exc:  # an internal error: the point of counting them
        return "internal error", f"{type(exc).__name__}: {exc}"[:80]
    return "read", ""


def _construct(construct: str) -> str:
    """Group constructs: `call to 'foo'` → `call to a function`, `type 'float *'` → `type 'float'`."""
    if construct.startswith("call to '"):
        name = construct[len("call to '") : -1]
        return f"call to '{name}'" if name.startswith(("atomic", "__")) else "call to a device function"
    if construct.startswith("type '"):
        # `float *`, `const s_t[4]` → `float`, `s_t`: the type without qualifiers and declarators
        name = re.sub(r"\bconst\b|[*&]|\[\d*\]", " ", construct[len("type '") : -1])
        return f"type '{' '.join(name.split())}'"
    return construct


def _clang_message(message: str) -> str:
    return re.sub(r"'[^']*'", "'…'", message.split(" (and ")[0])[:80]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "suite", type=Path, help="the GPUVerify testsuite/ folder (or any folder of .cu files)"
    )
    parser.add_argument("-o", "--output", type=Path, default=RESULTS)
    args = parser.parse_args()
    files = sorted([*args.suite.rglob("*.cu"), *args.suite.rglob("*.cl")])
    if not files:
        print(f"no .cu or .cl files under {args.suite}", file=sys.stderr)
        return 3
    rows = []
    start = time.perf_counter()
    for f in files:
        outcome, detail = classify(f)
        language = "OpenCL" if f.suffix == ".cl" else "CUDA"
        rows.append(
            {
                "file": str(f.relative_to(args.suite)),
                "language": language,
                "outcome": outcome,
                "detail": detail,
            }
        )
    elapsed = time.perf_counter() - start
    counts = Counter(r["outcome"] for r in rows)
    languages = sorted({r["language"] for r in rows})
    by_language = {lang: Counter(r["outcome"] for r in rows if r["language"] == lang) for lang in languages}
    blockers = Counter(f"{r['outcome']}: {r['detail']}" for r in rows if r["outcome"] != "read")
    args.output.mkdir(parents=True, exist_ok=True)
    (args.output / "gpuverify_read.json").write_text(
        json.dumps(
            {
                "kernels": len(rows),
                "counts": counts,
                "by_language": by_language,
                "seconds": round(elapsed, 1),
                "rows": rows,
            },
            indent=1,
        )
    )
    lines = [
        "# GPUVerify kernels read by hoaregpu",
        "",
        f"{len(rows)} kernels, {elapsed:.1f} s. Read = parsed by the Clang front end and lowered to the core"
        " language (not yet verified).",
        "",
        "| outcome | kernels | share |",
        "| --- | ---: | ---: |",
        *(f"| {k} | {v} | {100 * v / len(rows):.0f} % |" for k, v in counts.most_common()),
        "",
        "| language | kernels | read | share |",
        "| --- | ---: | ---: | ---: |",
        *(
            f"| {lang} | {sum(c.values())} | {c['read']} | {100 * c['read'] / sum(c.values()):.0f} % |"
            for lang, c in by_language.items()
        ),
        "",
        "## What blocks the others (first blocking construct per kernel)",
        "",
        "| blocker | kernels |",
        "| --- | ---: |",
        *(f"| {k} | {v} |" for k, v in blockers.most_common()),
        "",
    ]
    (args.output / "gpuverify_read.md").write_text("\n".join(lines))
    print("\n".join(lines[: 14 + len(counts) + len(languages)]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
