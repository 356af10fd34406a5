"""`hoaregpu.prove` and `hoaregpu.check`: write Hoare-logic derivations and check them
(proofs/README.md), as `hoaregpu prove` and `hoaregpu check` do.

    import hoaregpu
    proving = hoaregpu.prove("specs/array_sum_n2.cu", output="/tmp/array_sum.proof")
    checking = hoaregpu.check(["/tmp/array_sum.proof"], replay=True)
    assert proving.proved and checking.ok

`prove` raises `ConfigError`/`SpecError` for bad input (exit code 3 on the command line);
`check` reports an unreadable or stale proof as a problem of that proof (kind `input` or
`stale`). A side condition counts as discharged only when a solver proved it.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ..deep import deep
from ..errors import ConfigError
from ..proof.checker import CheckResult, Problem
from ..solvers.executor import Executor, check_executor, executor_for
from ..solvers.options import DEFAULT_STRATEGIES, SolverOptions

if TYPE_CHECKING:
    from ..proof.kernel import KernelInfo


@dataclass(frozen=True)
class ProofProblem:
    """Why a derivation does not hold: a refuted, undecided or wrong side condition, bad input."""

    kind: str  # wrong | refuted | undecided | input | stale
    reason: str
    line: int  # in the proof file (0: the whole proof)
    rule: str  # the Hoare rule of the node (`H-CONSEQ`, ...), "" if none
    where: str = ""  # prove: the statement and mask of the node


# A derivation proves the quadruple in the paper's lockstep semantics. Its result carries
# over to a GPU's interleavings only for a race-free kernel (Cor. 5.6/5.7), which no rule
# of the derivation checks: a kernel with a missing barrier can have a valid derivation.
LOCKSTEP_NOTE = (
    "note: a derivation proves the contract in the lockstep semantics (Kojima & Igarashi, Fig. 1); "
    "it holds on a GPU only if the kernel is race-free, which `hoaregpu verify` proves and "
    "`prove`/`check` do not"
)


@dataclass(frozen=True)
class KernelProof:
    """One kernel's derivation (`hoaregpu.prove`)."""

    kernel: str
    file: str
    proved: bool  # every side condition proved; the proof was written
    output: str | None  # the .proof file written (None when not proved or write=False)
    side_conditions: int  # discharged by a solver (trivial ones not counted)
    problems: tuple[ProofProblem, ...]
    notes: tuple[str, ...]  # loops without invariant, taken as `true`
    exit_code: int
    text: str = field(compare=False, repr=False)  # the derivation (proved) or ""


@dataclass(frozen=True)
class Proving:
    kernels: tuple[KernelProof, ...]
    exit_code: int  # the worst kernel's: 0 proved, 1 refuted, 2 undecided

    @property
    def proved(self) -> bool:
        return self.exit_code == 0

    def report(self) -> str:
        """What `hoaregpu prove` prints."""
        lines = []
        for k in self.kernels:
            if k.proved:
                wrote = f"; wrote {k.output}" if k.output else ""
                lines.append(
                    f"kernel {k.kernel} ({k.file}): proved, {k.side_conditions} side conditions{wrote}"
                )
                continue
            lines.append(f"kernel {k.kernel} ({k.file}): not proved, no proof written")
            lines += [f"  {p.rule}{p.where}: {p.kind}: {p.reason}" for p in k.problems]
            lines += list(k.notes)
        if any(k.proved for k in self.kernels):
            lines.append(LOCKSTEP_NOTE)
        return "\n".join(lines)


@dataclass(frozen=True)
class ReplayChange:
    """`check(..., replay=True)`: a side condition whose solver answer changed."""

    line: int
    text: str
    regression: bool


@dataclass(frozen=True)
class ProofCheck:
    """One .proof file checked (`hoaregpu.check`)."""

    path: str
    kernel: str
    exit_code: int  # 0 checked, 1 refuted/wrong, 2 undecided, 3 input error or stale
    problems: tuple[ProofProblem, ...]
    changes: tuple[ReplayChange, ...]  # replay only
    summary: str  # the line `hoaregpu check` prints first
    updated: bool  # update=True and the file was rewritten

    @property
    def ok(self) -> bool:
        return self.exit_code == 0


@dataclass(frozen=True)
class Checking:
    proofs: tuple[ProofCheck, ...]
    replay: bool
    regressed: bool  # replay: some side condition a recorded solver proved is no longer proved
    exit_code: int

    @property
    def ok(self) -> bool:
        return self.exit_code == 0

    def report(self) -> str:
        """What `hoaregpu check` prints."""
        lines = []
        for c in self.proofs:
            lines.append(c.summary)
            lines += [
                f"  also {c.path}:{p.line}: {p.rule + ': ' if p.rule else ''}{p.kind}: {p.reason}"
                for p in c.problems[1:]
            ]
            lines += [
                f"  {c.path}:{x.line}: {'regression' if x.regression else 'note'}: {x.text}"
                for x in c.changes
            ]
        if self.replay:
            what = "regressions found" if self.regressed else "nothing regressed"
            lines.append(f"replay: {len(self.proofs)} proofs, {what}")
        if any(c.ok for c in self.proofs):
            lines.append(LOCKSTEP_NOTE)
        return "\n".join(lines)


def _solvers(solver: str) -> list[str]:
    from ..solvers import get_backend

    names = [x.strip() for x in solver.split(",") if x.strip()]
    if not names:
        raise ConfigError(f"no solver in {solver!r}")
    for name in names:
        get_backend(name)  # ConfigError for an unknown one, before any work
    return names


def _problem(p: Problem, where: str = "") -> ProofProblem:
    return ProofProblem(p.kind, p.reason, p.line, p.rule, where)


def prove(
    path: str | os.PathLike[str],
    *,
    kernel: str | None = None,
    output: str | os.PathLike[str] | None = None,
    write: bool = True,
    solver: str = "z3",
    timeout: float = 10.0,
    memory_mb: int = 4096,
    seed: int = 0,
    jobs: int | None = None,
    executor: str | Executor = "local",
    scheduler: str | None = None,
    strategies: int = DEFAULT_STRATEGIES,
    incremental: bool = False,
) -> Proving:
    """Derive each kernel's quadruple by weakest preconditions, discharge every side condition
    with `solver` (a list `"z3,cvc5"`: each must prove it), and write the proved derivations
    to `output` (default proofs/KERNEL.proof; `write=False`: write nothing). `executor`,
    `scheduler`: where the side conditions are solved, as for `verify`."""
    from ..proof.kernel import load_kernels

    names = _solvers(solver)
    if isinstance(executor, str):
        check_executor(executor, scheduler)  # before any work
    options = SolverOptions(
        timeout=timeout, memory_mb=memory_mb, seed=seed, strategies=strategies, incremental=incremental
    )
    file = os.fspath(path)
    infos = [k for k in load_kernels(file) if kernel in (None, k.name)]
    if not infos:
        raise ConfigError(f"{file} has no kernel {kernel}" if kernel else f"{file} has no kernel")
    if output is not None and len(infos) > 1:
        raise ConfigError("-o needs one kernel: choose it with --kernel")
    workers = jobs or (os.cpu_count() or 1)
    with executor_for(executor, workers, scheduler) as run_on:
        out = [_prove_kernel(info, file, output, write, names, options, run_on) for info in infos]
    return Proving(tuple(out), max(k.exit_code for k in out))


def _prove_kernel(
    info: KernelInfo,
    file: str,
    output: str | os.PathLike[str] | None,
    write: bool,
    names: list[str],
    options: SolverOptions,
    executor: Executor,
) -> KernelProof:
    from ..proof.checker import check_proof
    from ..proof.derivation import Record, parse_proof, render
    from ..proof.generate import derive_kernel
    from ..proof.syntax import show_prog
    from ..solvers import Outcome

    target = os.fspath(output) if output is not None else os.path.join("proofs", f"{info.name}.proof")
    # formulas of long unrolled kernels nest deeper than Python's default recursion limit
    proof = deep(lambda: parse_proof(render(derive_kernel(info)), target))
    result = check_proof(proof, names, options, executor=executor)
    if result.exit_code:
        nodes = {n.line: n for n in proof.root.walk()}
        problems = []
        for p in result.problems:
            n = nodes.get(p.line)
            where = f" for `{show_prog(n.prog)[:100]}` under mask {n.mask or 'T'}" if n else ""
            problems.append(_problem(p, where))
        notes = tuple(
            f"{m.span}: note: this loop has no 'loop invariant'; it was taken as `true` "
            f"(not unrolled: {m.reason})"
            for m in info.missing_invariants
        )
        return KernelProof(info.name, file, False, None, 0, tuple(problems), notes, result.exit_code, "")
    for s in result.sides:
        r = s.result
        if s.trivial:
            s.node.side[s.which] = Record("trivial")
        elif r is not None and r.outcome is Outcome.PROVED:
            s.node.side[s.which] = Record("proved", r.solver, r.version, r.seconds)
    text = deep(lambda: render(proof, [f"Generated by `hoaregpu prove {file}` (weakest preconditions)."]))
    if write:
        parent = os.path.dirname(target)
        if parent:
            os.makedirs(parent, exist_ok=True)
        Path(target).write_text(text, encoding="utf-8")
    solved = sum(1 for s in result.sides if not s.trivial)
    return KernelProof(info.name, file, True, target if write else None, solved, (), (), 0, text)


def proof_files(paths: Sequence[str | os.PathLike[str]]) -> list[str]:
    """The .proof files of `paths` (folders searched recursively); ConfigError for a missing one."""
    out: list[str] = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            out.extend(str(f) for f in sorted(path.rglob("*.proof")))
        elif path.is_file():
            out.append(str(path))
        else:
            raise ConfigError(f"no such file or folder: {p}")
    return out


def _check_one(
    path: str, names: list[str], options: SolverOptions, executor: Executor, replay: bool
) -> CheckResult:
    from ..proof.checker import check_proof
    from ..proof.derivation import ProofFormatError, read_proof

    try:
        proof = deep(lambda: read_proof(path))
    except ProofFormatError as e:
        return CheckResult(path, "?", [Problem("input", e.message, e.line)])
    return check_proof(proof, names, options, recorded=replay, executor=executor)


def check(
    paths: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
    *,
    replay: bool = False,
    update: bool = False,
    solver: str = "z3",
    timeout: float = 10.0,
    memory_mb: int = 4096,
    seed: int = 0,
    jobs: int | None = None,
    executor: str | Executor = "local",
    scheduler: str | None = None,
    strategies: int = DEFAULT_STRATEGIES,
    incremental: bool = False,
) -> Checking:
    """Check derivations (.proof files, or folders of them). `replay`: re-run each side
    condition with its recorded solver and report what changed (a regression makes the exit
    code 2); `update`: rewrite the recorded solver results of the proofs that check.
    `executor`, `scheduler`: where the side conditions are solved, as for `verify`."""
    from ..proof.replay import compare, updated_text

    names = _solvers(solver)
    if isinstance(executor, str):
        check_executor(executor, scheduler)  # before any work
    options = SolverOptions(
        timeout=timeout, memory_mb=memory_mb, seed=seed, strategies=strategies, incremental=incremental
    )
    given = [paths] if isinstance(paths, str | os.PathLike) else list(paths)
    files = proof_files(given)
    with executor_for(executor, jobs or (os.cpu_count() or 1), scheduler) as run_on:
        results = [_check_one(path, names, options, run_on, replay) for path in files]
    checks: list[ProofCheck] = []
    regressed = False
    for path, result in zip(files, results, strict=True):
        changes: list[ReplayChange] = []
        if replay and result.exit_code == 0:
            changes = [ReplayChange(c.line, c.text, c.regression) for c in compare(result)]
            regressed |= any(c.regression for c in changes)
        updated = False
        if update and result.exit_code == 0:
            text = Path(path).read_text(encoding="utf-8")
            Path(path).write_text(updated_text(text, result), encoding="utf-8")
            updated = True
        problems = tuple(_problem(p) for p in result.problems)
        checks.append(
            ProofCheck(
                path, result.kernel, result.exit_code, problems, tuple(changes), result.render(), updated
            )
        )
    worst = max((c.exit_code for c in checks), default=0)
    if regressed and worst == 0:
        worst = 2
    return Checking(tuple(checks), replay, regressed, worst)
