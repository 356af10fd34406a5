"""Running a natively compiled kernel and comparing its final arrays with the interpreter's.

A comparison is `agree`, `disagree` or `not comparable` (with the reason): runs the
logic leaves nondeterministic (races, write conflicts), inputs `requires` rejects, runs
the interpreter stops (step budget) and native runs that leave the model C can express
(64-bit overflow, an index outside the native window, a fixed-size array overrun) are
not comparable. Everything else must agree on every cell of every array parameter.
"""

from __future__ import annotations

import json
import subprocess
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from ...core import Kernel
from ..generate import InputGenerator
from ..results import (
    ASSUMPTION_VIOLATED,
    BARRIER_DIVERGENCE,
    INADMISSIBLE,
    RACE,
    RUNTIME_ERROR,
    STOPPED,
    WRITE_CONFLICT,
    RunResult,
)
from ..testing import test_kernel
from ..values import Array, array_to_json, parse_array
from .build import NativeProgram

AGREE = "agree"
DISAGREE = "disagree"
NOT_COMPARABLE = "not comparable"

RUN_TIMEOUT = 10.0
MIN_WINDOW = 1024
MAX_WINDOW = 1 << 20


@dataclass
class NativeRun:
    status: str  # ok, barrier-divergence, out-of-window, trap, division-by-zero, timeout, bad-input, crashed
    detail: str
    arrays: dict[str, Array] = field(default_factory=dict)


@dataclass
class Comparison:
    verdict: str  # AGREE, DISAGREE or NOT_COMPARABLE
    reason: str
    threads: int
    inputs: dict[str, Any]
    interp: dict[str, Any] | None = None  # final array parameters, JSON input format
    native: dict[str, Any] | None = None
    differ: tuple[str, ...] = ()  # the arrays whose final contents differ


def window_for(inputs: dict[str, Any], threads: int) -> int:
    """Cells on each side of index 0: room for every input index, scalar and thread id."""
    biggest = threads
    for v in inputs.values():
        if isinstance(v, int):
            biggest = max(biggest, abs(v))
        elif isinstance(v, list):
            biggest = max(biggest, len(v))
        elif isinstance(v, dict):
            for k in v:
                if k != "*":
                    biggest = max(biggest, *(abs(int(p)) + 1 for p in str(k).split(",")))
    return min(MAX_WINDOW, max(MIN_WINDOW, 4 * biggest + 64))


def run_native(
    program: NativeProgram, threads: int, inputs: dict[str, Any], timeout: float = RUN_TIMEOUT
) -> NativeRun:
    """Run the compiled kernel once; inputs in the JSON format of `values.py`."""
    cmd = [str(program.binary), str(threads), str(window_for(inputs, threads))]
    try:
        done = subprocess.run(
            cmd, input=json.dumps(inputs), capture_output=True, text=True, timeout=timeout, check=False
        )
    except subprocess.TimeoutExpired:
        return NativeRun("timeout", f"no result within {timeout:g} s (an infinite loop or a deadlock)")
    lines = done.stdout.strip().splitlines()
    try:
        out = json.loads(lines[-1]) if lines else None
    except json.JSONDecodeError:
        out = None
    if not isinstance(out, dict):
        return NativeRun("crashed", f"exit status {done.returncode}, no result: {done.stderr.strip()[:300]}")
    if out.get("status") != "ok":
        return NativeRun(str(out.get("status")), str(out.get("detail", "")))
    arrays = {name: parse_array(cells, 1, name) for name, cells in out["arrays"].items()}
    return NativeRun("ok", "", arrays)


def _array_params(kernel: Kernel) -> dict[str, str]:
    """C name -> core name of the array parameters, as our front end sees them."""
    return {kernel.decl(p).display_name: p for p in kernel.params if kernel.decl(p).dim > 0}


def signature_mismatch(kernel: Kernel, program: NativeProgram) -> str | None:
    """The two front ends must agree on the parameters before any run is compared."""
    ours = [(kernel.decl(p).display_name, kernel.decl(p).dim > 0) for p in kernel.params]
    theirs = list(program.signature.params)
    if ours == theirs:
        return None
    return f"parameters differ: our front end reads {ours}, the C compiler {theirs}"


def _interp_blocker(run: RunResult) -> str | None:
    """Why the interpreter's run has no final state to compare, or None."""
    if run.status in (INADMISSIBLE, ASSUMPTION_VIOLATED):
        return "input not admissible (requires or assume)"
    racy = [v for v in run.violations if v.kind in (RACE, WRITE_CONFLICT) and not v.benign]
    if racy:
        return f"racy run ({racy[0].kind}): the result is nondeterministic"
    if run.status == STOPPED:
        stop = next((v for v in run.violations if v.kind not in (RACE, WRITE_CONFLICT)), None)
        return f"interpreter stopped: {stop.kind if stop else 'unknown reason'}"
    if run.final is None:
        return "interpreter has no final state"
    return None


# What C does where the interpreter stops: the sanitizer traps a division by zero or a
# negative shift (SIGILL), the hardware may raise SIGFPE.
_NATIVE_KIND = {
    BARRIER_DIVERGENCE: ("barrier-divergence",),
    RUNTIME_ERROR: ("division-by-zero", "trap"),
}


def compare(
    kernel: Kernel, program: NativeProgram, run: RunResult, timeout: float = RUN_TIMEOUT
) -> Comparison:
    """Run natively on the inputs of the interpreter's `run` and compare the outcomes."""
    cmp = Comparison(NOT_COMPARABLE, "", run.threads, run.inputs)
    mismatch = signature_mismatch(kernel, program)
    if mismatch is not None:
        cmp.verdict, cmp.reason = DISAGREE, mismatch
        return cmp
    blocker = _interp_blocker(run)
    if len(run.initial.geo.live) > 1:
        blocker = "several blocks or dimensions: the native harness runs one block along x"
    kinds = {k for v in run.violations for k in _NATIVE_KIND.get(v.kind, ())}
    if blocker is not None and not (blocker.startswith("interpreter stopped") and kinds):
        # Not run natively at all: a step-budget stop would just wait for the timeout.
        cmp.reason = blocker
        return cmp
    nat = run_native(program, run.threads, run.inputs, timeout)
    if blocker is not None:
        # Stopped runs agree when C stops the same way (divergence, division by zero).
        if nat.status in kinds:
            cmp.verdict, cmp.reason = AGREE, f"both stop: {nat.status}"
        elif "barrier-divergence" in kinds and nat.status == "ok":
            cmp.verdict, cmp.reason = (
                DISAGREE,
                "the interpreter reports barrier divergence, the native run does not",
            )
        else:
            cmp.reason = f"{blocker}; native: {nat.status}"
        return cmp
    if nat.status in ("out-of-window", "trap", "bad-input", "crashed"):
        cmp.reason = f"native run {nat.status}: {nat.detail}"
        return cmp
    if nat.status != "ok":
        cmp.verdict, cmp.reason = (
            DISAGREE,
            f"the interpreter finishes, the native run ends in {nat.status}: {nat.detail}",
        )
        return cmp
    assert run.final is not None
    names = _array_params(kernel)
    cmp.interp = {c: array_to_json(run.final.shared[p]) for c, p in names.items()}
    cmp.native = {c: array_to_json(a) for c, a in nat.arrays.items()}
    cmp.differ = tuple(c for c, p in names.items() if not run.final.shared[p].same(nat.arrays[c]))
    if cmp.differ:
        cmp.verdict, cmp.reason = DISAGREE, "final arrays differ: " + ", ".join(cmp.differ)
    else:
        cmp.verdict, cmp.reason = AGREE, "same final arrays"
    return cmp


@dataclass
class NativeTestResult:
    compiler: str
    runs: int = 0
    verdicts: Counter[str] = field(default_factory=Counter)
    reasons: Counter[str] = field(default_factory=Counter)  # of the not-comparable runs
    disagreements: list[Comparison] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.disagreements

    def add(self, cmp: Comparison) -> None:
        self.runs += 1
        self.verdicts[cmp.verdict] += 1
        if cmp.verdict == NOT_COMPARABLE:
            self.reasons[cmp.reason.split(":")[0]] += 1
        elif cmp.verdict == DISAGREE:
            self.disagreements.append(cmp)


def native_test(
    kernel: Kernel,
    program: NativeProgram,
    threads_range: tuple[int, int],
    trials: int,
    seed: int,
    *,
    generator: InputGenerator | None = None,
    step_budget: int = 200_000,
) -> NativeTestResult:
    """The draws of `test_kernel` with the same seed (thread count, run seed, inputs), all of
    them, each interpreted (by `test_kernel`) and run natively; every disagreement is kept."""
    result = NativeTestResult(program.compiler.name)
    test_kernel(
        kernel,
        threads_range,
        trials,
        seed,
        generator=generator,
        step_budget=step_budget,
        shrink_failures=False,
        races_fail=False,
        keep_going=True,
        on_run=lambda run: result.add(compare(kernel, program, run)),
    )
    return result


def render_comparison(cmp: Comparison) -> str:
    def dump(v: Any) -> str:
        return json.dumps(v, separators=(",", ":"))

    lines = [f"{cmp.verdict}: {cmp.reason}", f"  threads: {cmp.threads}", f"  inputs: {dump(cmp.inputs)}"]
    if cmp.interp is not None and cmp.native is not None:
        for name in cmp.interp:
            mark = "   <-- differs" if name in cmp.differ else ""
            lines.append(f"  interpreter: {name} = {dump(cmp.interp[name])}{mark}")
            lines.append(f"  native:      {name} = {dump(cmp.native.get(name))}")
    return "\n".join(lines)
