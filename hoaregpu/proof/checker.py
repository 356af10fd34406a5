"""The proof checker: independent of the VC generator (it never imports `hoaregpu.vc` nor
`hoaregpu.smt.encode`; tests/proof/test_checker_imports.py asserts it).

For a proof it checks, and reports the first failure with the node's rule and line:

1. the header: the spec file and kernel exist, the thread count is the kernel's, and the
   hash of the kernel's core program is the recorded one (else: stale);
2. the root: `{requires} T ⇒ body {ensures}` exactly, the contract read at all threads
   (proofs/README.md gives the form), the program the kernel's current one;
3. every node is an instance of its rule's schema (Fig. 2; H-SYNC strict as in §7; schema.py),
   syntactically, up to renaming of bound integer variables: shapes, masks `m && z` /
   `m && !z`, H-ASSIGN's precondition exactly `\\forall x'; assign(x', m, x, [ē], e) ==> φ[x'/x]`,
   the premises of H-SEQ / H-IF / H-WHILE, freshness of z (not in the program, not free in
   the conclusion) and of x' (not free in φ), mask variables not program variables;
4. every formula is well formed (known variables, locals read at a thread);
5. every side condition of H-CONSEQ (φ' → φ and ψ → ψ') is valid: trivially (the goal is
   the hypothesis or one of its conjuncts) or by a solver, through `hoaregpu.proof.smt`,
   one query per part of the goal (`formula_ops.goal_parts`) that is not itself trivial.

Exit codes as for `verify`: 0 checked, 1 a node is wrong or a side condition refuted,
2 undecided, 3 input error or stale proof.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from pysmt.environment import get_env, pop_env, push_env

from ..deep import deep
from ..errors import SpecError
from ..smt.smtlib import script_text
from ..solvers import Outcome, SolverOptions, SolverResult, SolveTask, solve_many
from .derivation import Node, Proof
from .formula import TRUE, F, Mask, conjuncts
from .formula_ops import alpha_eq
from .goal_parts import goal_parts
from .kernel import KernelInfo, load_kernels
from .mask_subst import by_mask_definition
from .schema import NodeError, check_node, check_root
from .smt import Translator, Untranslatable
from .syntax import show

if TYPE_CHECKING:
    from ..solvers.executor import Executor

EXIT = {"wrong": 1, "refuted": 1, "undecided": 2, "input": 3, "stale": 3}


@dataclass(frozen=True)
class Problem:
    kind: str  # wrong | refuted | undecided | input | stale
    reason: str
    line: int = 0
    rule: str = ""


@dataclass
class Side:
    """A side condition `hyp → goal` of an H-CONSEQ node."""

    node: Node
    which: str  # "pre" (φ' → φ) or "post" (ψ → ψ')
    hyp: F
    goal: F
    trivial: bool
    result: SolverResult | None = None


@dataclass
class CheckResult:
    path: str
    kernel: str
    problems: list[Problem] = field(default_factory=list)
    sides: list[Side] = field(default_factory=list)

    @property
    def exit_code(self) -> int:
        return max((EXIT[p.kind] for p in self.problems), default=0)

    def render(self) -> str:
        if not self.problems:
            solved = sum(1 for s in self.sides if not s.trivial)
            trivial = len(self.sides) - solved
            return f"{self.path}: checked ({self.kernel}: {solved} side conditions proved, {trivial} trivial)"
        p = self.problems[0]
        where = f"{self.path}:{p.line}" if p.line else self.path
        rule = f" {p.rule}:" if p.rule else ""
        more = f" (and {len(self.problems) - 1} more)" if len(self.problems) > 1 else ""
        return f"{where}:{rule} {p.kind}: {p.reason}{more}"


def is_trivial(hyp: F, goal: F, masks: set[str] | frozenset[str] = frozenset()) -> bool:
    """The goal is the hypothesis or one of its conjuncts, or (`masks`: the proof's mask
    variables) follows from them by substituting a mask variable's definition `\\all(e == z)`
    (mask_subst.py: H-IF's and H-WHILE's consequence over a long remainder)."""
    if goal == TRUE or alpha_eq(hyp, goal) or any(alpha_eq(c, goal) for c in conjuncts(hyp)):
        return True
    return bool(masks) and by_mask_definition(hyp, goal, masks)


def mask_vars(proof: Proof) -> set[str]:
    return {z for n in proof.root.walk() for z, _ in n.mask}


# ---------------------------------------------------------------- the whole proof


def _spec_path(proof: Proof) -> str:
    if os.path.isabs(proof.spec) or os.path.exists(proof.spec):
        return proof.spec
    here = os.path.dirname(os.path.abspath(proof.path))
    for base in (here, os.path.dirname(here)):
        candidate = os.path.join(base, proof.spec)
        if os.path.exists(candidate):
            return candidate
    return proof.spec


def load_kernel(proof: Proof) -> KernelInfo:
    """The proof's kernel from its spec file; Problem-carrying NodeError on failure."""
    path = _spec_path(proof)
    try:
        kernels = load_kernels(path)
    except SpecError as e:
        raise ProblemError(Problem("input", f"spec {proof.spec}: {e.render().splitlines()[0]}")) from None
    for k in kernels:
        if k.name == proof.kernel:
            return k
    raise ProblemError(Problem("input", f"spec {proof.spec} has no kernel {proof.kernel}"))


class ProblemError(Exception):
    def __init__(self, problem: Problem) -> None:
        super().__init__(problem.reason)
        self.problem = problem


def structure(proof: Proof) -> tuple[CheckResult, KernelInfo | None]:
    """Every check but the solver's: header, root, schemas, well-formedness; the side conditions."""
    result = CheckResult(proof.path, proof.kernel)
    try:
        info = load_kernel(proof)
    except ProblemError as e:
        result.problems.append(e.problem)
        return result, None
    if proof.threads != info.threads:
        want = "any" if info.threads is None else str(info.threads)
        have = "any" if proof.threads is None else str(proof.threads)
        result.problems.append(
            Problem("stale", f"the proof is for threads: {have}, the spec now fixes {want}")
        )
        return result, info
    if proof.program_hash != info.program_hash:
        result.problems.append(
            Problem("stale", f"the kernel's program changed since the proof was made ({info.program_hash})")
        )
        return result, info
    try:
        check_root(proof, info)
    except NodeError as e:
        result.problems.append(Problem("wrong", str(e), proof.root.line, proof.root.rule))
        return result, info
    zs = mask_vars(proof)
    push_env()
    try:
        tr = Translator(info, zs, info.threads, get_env())
        for n in proof.root.walk():
            try:
                check_node(n, info)
                for f in (n.pre, n.post):
                    tr.wellformed(f)
            except (NodeError, Untranslatable) as e:
                result.problems.append(Problem("wrong", str(e), n.line, n.rule))
                return result, info
            if n.rule == "H-CONSEQ":
                q = n.premises[0]
                for which, hyp, goal in (("pre", n.pre, q.pre), ("post", q.post, n.post)):
                    result.sides.append(Side(n, which, hyp, goal, is_trivial(hyp, goal, zs)))
    finally:
        pop_env()
    return result, info


def scripts(result: CheckResult, info: KernelInfo, zs: set[str]) -> list[list[str] | Problem]:
    """The SMT-LIB scripts of every non-trivial side condition, one per non-trivial part of
    its goal (`goal_parts`: it is valid iff every part is), or the Problem that prevents them."""
    out: list[list[str] | Problem] = []
    for s in result.sides:
        if s.trivial:
            continue
        push_env()
        try:
            tr = Translator(info, zs, info.threads, get_env())
            try:
                # a part that is a conjunct of the hypothesis needs no solver (is_trivial)
                goals = [g for g in goal_parts(s.goal) if not is_trivial(s.hyp, g, zs)] or [s.goal]
                out.append([script_text(tr.entailment(s.hyp, g)) for g in goals])
            except Untranslatable:
                # A part may lack the goal's `\forall x'` that a hypothesis is instantiated
                # with; the whole goal has it.
                try:
                    out.append([script_text(tr.entailment(s.hyp, s.goal))])
                except Untranslatable as e:
                    problem = Problem("undecided", f"side condition {s.which}: {e}", s.node.line, s.node.rule)
                    out.append(problem)
        finally:
            pop_env()
    return out


def combined(parts: Sequence[SolverResult]) -> SolverResult:
    """A side condition's result from its parts': refuted if one is, proved if all are (by
    the solver of the slowest part, in their total time), else the first undecided one."""
    for r in parts:
        if r.outcome is Outcome.REFUTED:
            return r
    if all(r.outcome is Outcome.PROVED for r in parts):
        slowest = max(parts, key=lambda r: r.seconds)
        return replace(slowest, seconds=sum(r.seconds for r in parts))
    return next(r for r in parts if r.outcome is not Outcome.PROVED)


def check_proof(
    proof: Proof,
    solver: str | Sequence[str],
    options: SolverOptions,
    jobs: int = 1,
    recorded: bool = False,
    executor: Executor | None = None,
) -> CheckResult:
    """Check `proof`. `solver` is a backend or a list of them: a side condition that one
    leaves undecided goes to the next. With `recorded`, a side condition recorded as proved
    by some solver goes to that solver (replay). `executor`: where the side conditions are
    solved (default `jobs` local workers; `--executor dask`: one Dask task each)."""
    solvers = [solver] if isinstance(solver, str) else list(solver)
    # the walks are recursive: room for the deep formulas of long unrolled kernels
    result, info = deep(lambda: structure(proof))
    if result.problems or info is None:
        return result
    todo = [s for s in result.sides if not s.trivial]
    made = deep(lambda: scripts(result, info, mask_vars(proof)))
    undecided: list[Problem] = []
    queue: list[tuple[int, int, str, list[str]]] = []  # (side, part, script, solvers left)
    parts: dict[int, list[SolverResult | None]] = {}
    for i, (s, m) in enumerate(zip(todo, made, strict=True)):
        if isinstance(m, Problem):
            undecided.append(m)
            continue
        rec = s.node.side.get(s.which)
        # Replay asks the recorded solver first; the others stay as a fallback, since one
        # solver can leave undecided (z3: "incomplete quantifiers") what it proved before.
        if recorded and rec is not None and rec.solver:
            order = [rec.solver, *(x for x in solvers if x != rec.solver)]
        else:
            order = solvers
        parts[i] = [None] * len(m)
        queue += [(i, k, script, order) for k, script in enumerate(m)]
    while queue:
        tasks = [SolveTask(text, order[0]) for _, _, text, order in queue]
        answers = (
            solve_many(tasks, options, jobs=jobs) if executor is None else executor.solve_many(tasks, options)
        )
        again = []
        for (i, k, text, order), answer in zip(queue, answers, strict=True):
            parts[i][k] = answer
            if answer.outcome not in (Outcome.PROVED, Outcome.REFUTED) and len(order) > 1:
                again.append((i, k, text, order[1:]))
        queue = again
    for i, got in parts.items():
        answered = [r for r in got if r is not None]
        assert len(answered) == len(got), "a part of a side condition was never solved"
        todo[i].result = combined(answered)
    for s in todo:
        if s.result is None:
            continue
        what = ("φ' → φ" if s.which == "pre" else "ψ → ψ'") + f" (side-{s.which})"
        if s.result.outcome is Outcome.REFUTED:
            why = f"the side condition {what} is false ({s.result.solver} found a countermodel)"
            result.problems.append(Problem("refuted", why, s.node.line, s.node.rule))
        elif s.result.outcome is not Outcome.PROVED:
            why = f"the side condition {what} is not decided: {s.result.message or s.result.outcome.value}"
            undecided.append(Problem("undecided", why, s.node.line, s.node.rule))
    result.problems.sort(key=lambda p: p.line)
    result.problems += undecided
    return result


def side_line(s: Side) -> str:
    return f"{show(s.hyp)} ==> {show(s.goal)}"


__all__ = ["CheckResult", "Problem", "Side", "check_node", "check_proof", "check_root", "structure"]

_ = Mask  # re-exported for readers of this module's signatures
