"""Differential campaign (issue 8): random CUDA kernels, verified, interpreted and run natively.

Each generated kernel is CUDA *source text* over three arrays `a`, `b`, `out`, race-free by
construction (per barrier interval an array is either written only at `threadIdx.x` or
only read), with branches on `threadIdx.x` and on data, constant-trip `for` loops (with a
true but weak `loop invariant`), ternaries, C division and shifts, and barriers at uniform
places. For every kernel:

1. The kernel without a contract runs on R random inputs (random thread counts) in the
   lockstep interpreter and natively (`hoaregpu.interp.native`): one case per input.
2. A pinned input family — `requires blockDim.x == T` and every cell the kernel reads —
   runs natively; its final arrays become a contract (`ensures` = the native state), and
   a planted wrong contract changes one cell. Both are verified with z3 (`hoaregpu.driver`,
   short timeout) and run in the interpreter on the pinned input (two more cases).

Disagreements, each with a reproducer in bench/results/differential/:
- `interp-vs-native`: the interpreter and the native run differ (final arrays, or one
  stops and the other does not);
- `verified-but-native-violates`: the wrong contract is verified, yet the native run
  violates it (unsound verifier or a front-end bug);
- `true-contract-refuted`: a loop-free kernel's true contract is refuted by a solver
  (with loops the invariants are weak, so a refutation there is incompleteness);
- `interp-contract`: the interpreter flags the true contract or misses the wrong one;
- `frontend-rejects`: our front end rejects a kernel the C compiler accepts.

Run:  nice -n 10 .venv/bin/python bench/differential.py --kernels 800 --inputs 12
writes bench/results/differential.json and .md. Not a timed test; a 20-case slice runs in
tests/interp/test_native.py.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hoaregpu.driver import VerifyOptions, load_kernels, prepare, solve  # noqa: E402
from hoaregpu.errors import HoareGpuError  # noqa: E402
from hoaregpu.interp import run_kernel  # noqa: E402
from hoaregpu.interp.native import (  # noqa: E402
    DISAGREE,
    NOT_COMPARABLE,
    NativeBuildError,
    build,
    compare,
    render_comparison,
    run_native,
)
from hoaregpu.interp.results import POSTCONDITION  # noqa: E402
from hoaregpu.solvers import SolverOptions  # noqa: E402

ARRAYS = ("a", "b", "out")
LOCALS = ("x", "y")
RESULTS = ROOT / "bench" / "results"


class Gen:
    """Random statements; `modes[arr]` is "own" (only `arr[threadIdx.x]`) or "ro" (read only)."""

    def __init__(self, rng: random.Random, threads: int, shifts: bool = True) -> None:
        self.rng = rng
        self.shifts = shifts
        self.threads = threads
        self.loops = 0
        self.has_loop = False

    def index(self, arr: str, modes: dict[str, str]) -> str:
        if modes[arr] == "own":
            return "threadIdx.x"
        return self.rng.choice(
            [
                "threadIdx.x",
                f"(threadIdx.x + {self.rng.randint(1, 3)}) % blockDim.x",
                str(self.rng.randrange(self.threads)),
                "blockDim.x - 1 - threadIdx.x",
            ]
        )

    def expr(self, depth: int, modes: dict[str, str], scope: list[str]) -> str:
        r = self.rng.random()
        if depth <= 0 or r < 0.3:
            # `t`/`nt` are int copies of threadIdx.x/blockDim.x: mixed with negative values,
            # the unsigned originals would wrap in C (which `verify` reports as unsigned-wrap,
            # tests/test_unsigned.py), and the campaign compares the mathematical semantics
            atoms = [str(self.rng.randint(-3, 5)), "t", *scope, *scope]
            if self.rng.random() < 0.3:
                atoms.append("nt")
            arr = self.rng.choice(ARRAYS)
            atoms.append(f"{arr}[{self.index(arr, modes)}]")
            return self.rng.choice(atoms)
        sub = self.expr(depth - 1, modes, scope)
        if r < 0.75:
            op = self.rng.choice(["+", "-", "*", "+", "-"])
            return f"({sub} {op} {self.expr(depth - 1, modes, scope)})"
        if r < 0.85:
            op = self.rng.choice(["/", "%"])
            return f"({sub} {op} {self.rng.choice(['2', '3', '(-2)', '5'])})"
        if r < 0.9:
            if not self.shifts:
                return f"(-{sub})"
            return f"({sub} >> {self.rng.randint(1, 2)})"
        return f"({self.cond(depth - 1, modes, scope)} ? {sub} : {self.expr(depth - 1, modes, scope)})"

    def cond(self, depth: int, modes: dict[str, str], scope: list[str]) -> str:
        r = self.rng.random()
        if r < 0.35:
            op = self.rng.choice(["<", "<=", ">", "==", "!="])
            return f"threadIdx.x {op} {self.rng.randrange(self.threads + 1)}"
        if r < 0.45:
            return f"threadIdx.x % 2 == {self.rng.randint(0, 1)}"
        if r < 0.85 or depth <= 0:
            op = self.rng.choice(["<", "<=", ">", ">=", "==", "!="])
            return f"{self.expr(1, modes, scope)} {op} {self.expr(1, modes, scope)}"
        op = self.rng.choice(["&&", "||"])
        neg = "!" if self.rng.random() < 0.3 else ""
        return f"{neg}({self.cond(0, modes, scope)} {op} {self.cond(0, modes, scope)})"

    def stmt(self, depth: int, modes: dict[str, str], scope: list[str], ind: str) -> list[str]:
        r = self.rng.random()
        own = [a for a in ARRAYS if modes[a] == "own"]
        e = self.expr(2, modes, scope)
        if r < 0.3 or (r < 0.55 and not own):
            x = self.rng.choice(LOCALS)
            form = self.rng.choice([f"{x} = {e};", f"{x} += {e};", f"{x} -= {e};", f"{x}++;", f"--{x};"])
            return [ind + form]
        if r < 0.55:
            arr = self.rng.choice(own)
            op = self.rng.choice(["=", "=", "+=", "-="])
            return [f"{ind}{arr}[threadIdx.x] {op} {e};"]
        if r < 0.8 and depth > 0:
            out = [f"{ind}if ({self.cond(1, modes, scope)}) {{"]
            out += self.block(depth - 1, modes, scope, ind + "    ")
            if self.rng.random() < 0.5:
                out += [f"{ind}}} else {{", *self.block(depth - 1, modes, scope, ind + "    ")]
            return [*out, f"{ind}}}"]
        if depth > 0 and self.loops < 2:
            return self.loop(depth, modes, scope, ind, barrier=False)
        return [f"{ind}{self.rng.choice(LOCALS)} = {e};"]

    def loop(self, depth: int, modes: dict[str, str], scope: list[str], ind: str, barrier: bool) -> list[str]:
        i, k = f"i{self.loops}", self.rng.randint(0, 3)
        self.loops += 1
        self.has_loop = True
        out = [
            f"{ind}/*@ loop invariant 0 <= {i} && {i} <= {k}; */",
            f"{ind}for (int {i} = 0; {i} < {k}; {i}++) {{",
        ]
        out += self.block(depth - 1, modes, [*scope, i], ind + "    ")
        if barrier:
            out.append(f"{ind}    __syncthreads();")
        return [*out, f"{ind}}}"]

    def block(self, depth: int, modes: dict[str, str], scope: list[str], ind: str) -> list[str]:
        out: list[str] = []
        for _ in range(self.rng.randint(1, 3)):
            out += self.stmt(depth, modes, scope, ind)
        return out


@dataclass
class Kernel:
    name: str
    threads: int  # T of the pinned family
    body: list[str]
    has_loop: bool

    def text(self, contract: list[str] | None = None) -> str:
        head = ["/*@ " + "\n    ".join(contract) + "\n*/"] if contract else []
        sig = f"__global__ void {self.name}(int *a, int *b, int *out) {{"
        return "\n".join([*head, sig, *self.body, "}"]) + "\n"


def generate(rng: random.Random, name: str, shifts: bool = True) -> Kernel:
    threads = rng.randint(1, 4)
    g = Gen(rng, threads, shifts)
    body = ["    int t = threadIdx.x;", "    int nt = blockDim.x;", "    int x = 0;"]
    body.append(f"    int y = {rng.choice(['t', '1', 'a[threadIdx.x]'])};")
    for n in range(rng.randint(1, 3)):
        if n:
            body.append("    __syncthreads();")
        modes = {a: rng.choice(["own", "ro"]) for a in ARRAYS}
        if rng.random() < 0.2 and g.loops < 2:
            body += g.loop(2, modes, list(LOCALS), "    ", barrier=True)
        else:
            body += g.block(2, modes, list(LOCALS), "    ")
    return Kernel(name, threads, body, g.has_loop)


def contract(k: Kernel, pinned: dict[str, list[int]], final: dict[str, list[int]]) -> list[str]:
    lines = [f"requires blockDim.x == {k.threads};"]
    for arr in ARRAYS:
        pins = " && ".join(f"{arr}[{i}] == {v}" for i, v in enumerate(pinned[arr]))
        ens = " && ".join(f"{arr}[{i}] == {v}" for i, v in enumerate(final[arr]))
        lines += [f"requires {pins};", f"ensures {ens};"]
    return lines


@dataclass
class Campaign:
    cases: int = 0
    verdicts: Counter[str] = field(default_factory=Counter)
    reasons: Counter[str] = field(default_factory=Counter)
    verify: Counter[str] = field(default_factory=Counter)
    disagreements: list[dict[str, Any]] = field(default_factory=list)
    kernels: int = 0
    skipped_kernels: Counter[str] = field(default_factory=Counter)


def _record(c: Campaign, out: Path | None, kind: str, text: str, detail: dict[str, Any]) -> None:
    entry = {"kind": kind, **detail}
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        stem = out / f"{kind}-{len(c.disagreements):04d}"
        stem.with_suffix(".cu").write_text(text)
        stem.with_suffix(".json").write_text(json.dumps(entry, indent=1, default=str))
        entry["reproducer"] = f"{out.name}/{stem.name}.cu"  # relative to the results folder
    c.disagreements.append(entry)


def _case(c: Campaign, cmp: Any, text: str, out: Path | None) -> None:
    c.cases += 1
    c.verdicts[cmp.verdict] += 1
    if cmp.verdict == NOT_COMPARABLE:
        c.reasons[cmp.reason.split(":")[0]] += 1
    elif cmp.verdict == DISAGREE:
        # `uses_shift`: `>>` of a negative value was an interpreter bug (it truncated where C
        # and the VCs floor; fixed in interp.evaluate.c_shr), kept to sort old reproducers
        detail = {"comparison": render_comparison(cmp), "uses_shift": ">>" in text}
        _record(c, out, "interp-vs-native", text, detail)


def _verify(paths: list[str], timeout: float) -> list[str]:
    prepared, errors = prepare(paths, None)
    if errors:
        raise HoareGpuError("; ".join(str(e) for e in errors))
    opts = VerifyOptions(solver="z3", solver_options=SolverOptions(timeout=timeout))
    return [k.verdict for k in solve(prepared, opts)]


def one_kernel(c: Campaign, rng: random.Random, n: int, work: Path, args: argparse.Namespace) -> None:
    k = generate(rng, f"k{n}", not args.no_shifts)
    plain = work / f"{k.name}.cu"
    plain.write_text(k.text())
    try:
        [kern] = load_kernels(str(plain))
    except HoareGpuError as e:
        kind = "frontend-rejects"
        try:
            build(plain, k.name)
        except NativeBuildError:
            kind = ""
        if kind:
            _record(c, args.out, kind, k.text(), {"error": str(e)})
        c.skipped_kernels["does not parse" if kind else "neither front end accepts it"] += 1
        return
    try:
        program = build(plain, k.name)
    except NativeBuildError as e:
        c.skipped_kernels["does not compile natively"] += 1
        print(f"{k.name}: {e}", file=sys.stderr)
        return
    c.kernels += 1
    for _ in range(args.inputs):
        t = rng.randint(1, 6)
        inputs = {a: [rng.randint(-5, 9) for _ in range(rng.randint(0, 8))] for a in ARRAYS}
        run = run_kernel(kern, t, inputs, seed=rng.randrange(1000))
        _case(c, compare(kern, program, run), k.text(), args.out)
    # the pinned family and its contracts
    pinned = {a: [rng.randint(-5, 9) for _ in range(k.threads)] for a in ARRAYS}
    nat = run_native(program, k.threads, dict(pinned))
    if nat.status != "ok":
        c.skipped_kernels[f"pinned run: {nat.status}"] += 1
        return
    final = {a: [nat.arrays[a].get((i,)) for i in range(k.threads)] for a in ARRAYS}
    wrong = {a: list(v) for a, v in final.items()}
    arr = rng.choice(ARRAYS)
    wrong[arr][rng.randrange(k.threads)] += rng.choice([-1, 1])
    texts = {"true": k.text(contract(k, pinned, final)), "wrong": k.text(contract(k, pinned, wrong))}
    paths = []
    for which, text in texts.items():
        p = work / f"{k.name}_{which}.cu"
        p.write_text(text)
        paths.append(str(p))
        [ck] = load_kernels(str(p))
        r = run_kernel(ck, k.threads, dict(pinned))
        _case(c, compare(ck, program, r), text, args.out)
        flagged = any(v.kind == POSTCONDITION for v in r.violations)
        if flagged != (which == "wrong") and r.final is not None:
            detail = {"contract": which, "status": r.status, "uses_shift": ">>" in text}
            _record(c, args.out, "interp-contract", text, detail)
    if args.no_verify:
        return
    verdicts = _verify(paths, args.timeout)
    for which, verdict in zip(texts, verdicts, strict=True):
        c.verify[f"{which} contract, {'loop' if k.has_loop else 'loop-free'}: {verdict}"] += 1
        if which == "wrong" and verdict == "verified":
            _record(c, args.out, "verified-but-native-violates", texts[which], {"native_final": final})
        if which == "true" and verdict == "failed" and not k.has_loop:
            _record(c, args.out, "true-contract-refuted", texts[which], {"native_final": final})


def run(args: argparse.Namespace) -> Campaign:
    rng = random.Random(args.seed)
    c = Campaign()
    start = time.time()
    with tempfile.TemporaryDirectory(prefix="hoaregpu-differential-") as d:
        for n in range(args.kernels):
            one_kernel(c, rng, n, Path(d), args)
            if args.progress and (n + 1) % 25 == 0:
                print(
                    f"{n + 1} kernels, {c.cases} cases, {len(c.disagreements)} disagreements, "
                    f"{time.time() - start:.0f} s",
                    flush=True,
                )
                if args.json is not None:
                    write(c, args, time.time() - start)
    if args.json is not None:
        write(c, args, time.time() - start)
    return c


def write(c: Campaign, args: argparse.Namespace, seconds: float) -> None:
    kinds = Counter(d["kind"] for d in c.disagreements)
    data = {
        "kernels_generated": args.kernels,
        "kernels_run": c.kernels,
        "skipped_kernels": dict(c.skipped_kernels),
        "cases": c.cases,
        "verdicts": dict(c.verdicts),
        "not_comparable": dict(c.reasons),
        "verify": dict(sorted(c.verify.items())),
        "disagreements": dict(kinds),
        "details": c.disagreements,
        "seed": args.seed,
        "inputs_per_kernel": args.inputs,
        "seconds": round(seconds, 1),
    }
    Path(args.json).write_text(json.dumps(data, indent=1, default=str) + "\n")
    md = [
        "# Differential campaign (bench/differential.py)",
        "",
        f"{c.kernels} kernels run ({args.kernels} generated, seed {args.seed}), {c.cases} kernel x input "
        f"cases in {seconds:.0f} s.",
        "",
        "| interpreter vs native | cases |",
        "| --- | ---: |",
        *[f"| {k} | {v} |" for k, v in sorted(c.verdicts.items())],
        "",
        "| not comparable because | cases |",
        "| --- | ---: |",
        *[f"| {k} | {v} |" for k, v in c.reasons.most_common()],
        "",
        "| verify (z3) | kernels |",
        "| --- | ---: |",
        *[f"| {k} | {v} |" for k, v in sorted(c.verify.items())],
        "",
        "| disagreement | count |",
        "| --- | ---: |",
        *[f"| {k} | {v} |" for k, v in sorted(kinds.items())],
        "",
        f"Skipped kernels: {dict(c.skipped_kernels) or 'none'}. Reproducers: bench/results/differential/.",
    ]
    Path(args.json).with_suffix(".md").write_text("\n".join(md) + "\n")


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--kernels", type=int, default=800)
    p.add_argument("--inputs", type=int, default=12, help="random inputs per kernel")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--timeout", type=float, default=5.0, help="z3 seconds per VC")
    p.add_argument("--no-verify", action="store_true")
    p.add_argument("--no-shifts", action="store_true", help="generate no `>>`")
    p.add_argument("--out", type=Path, default=RESULTS / "differential", help="reproducer folder")
    p.add_argument("--json", type=Path, default=RESULTS / "differential.json")
    p.add_argument("--progress", action="store_true")
    return p


if __name__ == "__main__":
    campaign = run(parser().parse_args())
    print(f"{campaign.cases} cases, {len(campaign.disagreements)} disagreements")
