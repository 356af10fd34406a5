"""`hoaregpu.test(..., native=True)`: every drawn input also run natively, and compared."""

from __future__ import annotations

import json
import shlex
from collections.abc import Callable

from ..core import Kernel
from ..errors import ConfigError
from ..interp import native
from ..interp.results import RunResult
from .execution import NativeComparison


def native_program(
    file: str, kernel: Kernel, notes: list[str]
) -> tuple[native.NativeTestResult | None, Callable[[RunResult], None] | None]:
    """The kernel compiled before any run, and the hook comparing each run with it; (None,
    None) with a note in `notes` when it cannot be (no compiler, a kernel with floats)."""
    if any(d.floating for d in kernel.decls):
        notes.append(
            "--native skipped: the native executor exchanges integer arrays only (this kernel has floats)"
        )
        return None, None
    try:
        program = native.build(file, kernel.name)
    except native.NativeUnavailable as e:
        notes.append(f"--native skipped: {e}")
        return None, None
    except native.NativeBuildError as e:
        raise ConfigError(f"--native: {e}") from None
    compared = native.NativeTestResult(program.compiler.name)

    def on_run(r: RunResult) -> None:  # each drawn run, also run natively (no second draw)
        compared.add(native.compare(kernel, program, r))

    return compared, on_run


def native_report(file: str, kernel: str | None, result: native.NativeTestResult) -> NativeComparison:
    v = result.verdicts
    why = ", ".join(f"{n} {r}" for r, n in result.reasons.most_common())
    lines = [
        f"native ({result.compiler}): {result.runs} runs, {v[native.AGREE]} agree, "
        f"{v[native.NOT_COMPARABLE]} not comparable{f' ({why})' if why else ''}, "
        f"{v[native.DISAGREE]} disagree"
    ]
    if not result.ok:
        first = result.disagreements[0]
        lines.append(f"native run DISAGREES with the interpreter (first of {len(result.disagreements)}):")
        lines.append(native.render_comparison(first))
        command = ["hoaregpu", "run", file, "--threads", str(first.threads)]  # native: one block
        if kernel is not None:
            command += ["--kernel", kernel]
        command += ["--input", json.dumps(first.inputs, separators=(",", ":"))]
        lines.append("interpreter side: " + " ".join(shlex.quote(p) for p in command))
    return NativeComparison(
        result.compiler,
        result.runs,
        v[native.AGREE],
        v[native.NOT_COMPARABLE],
        v[native.DISAGREE],
        "\n".join(lines),
    )
