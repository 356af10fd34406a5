"""Loop invariants about the race logs (hoaregpu.races), guessed and then pruned Houdini-style.

A loop whose body accesses memory assigns the ghost logs, so H-WHILE forgets them: what the
other threads recorded before and during the loop is known at the loop head only through
its invariants. Users do not write those; they are inferred here, from candidates:

- `flag <= 0`: nothing of this kind recorded in the current barrier interval (a loop whose
  iterations end with a barrier: reductions);
- `flag == 0`: nothing recorded at all, for an array the loop with a barrier never accesses
  (its barriers assign the flags, so H-WHILE would forget that they were 0);
- `flag != 0 ==> cell == e` for an access `a[e]` whose index the loop does not change
  (`buf[threadIdx.x]`);
- `flag != 0 ==> φ[cell/v]` for an access `a[v]` indexed by a variable `v` the loop
  changes, and each of the loop's own invariant clauses φ about `v` alone
  (`k % 4 == threadIdx.x` becomes `cell % 4 == threadIdx.x`): the recorded cell was `v` at
  some iteration, where φ held;
- `flag != 0 ==> cell % S == r % S` for an access `a[i * S + r]` whose counter part `i`
  the loop changes and whose `S` and `r` it does not (`p[i * blockDim.x + threadIdx.x]`).

`houdini` proves the candidates' entry and preservation VCs (z3, a resource limit; on the
VC's slice first, `vc.slicing`), drops every candidate that is not proved, and repeats
until the rest is inductive. The survivors stay in the kernel as loop invariants, so their
VCs are proved once more with the solver the user chose: an inferred invariant never makes
a kernel verify unless it is proved like a user's (issue 11, item 4).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from . import core
from .access_facts import without as without_facts
from .errors import SYNTHETIC_COL, Span
from .launch import Launch
from .term_walk import map_children, operands, subterms, variable_names
from .terms import At, Binary, BinOp, IntLit, Old, Quant, Term, ThreadPred, Var

if TYPE_CHECKING:
    from .race_instrument import Access, Instrumenter
    from .vc.generate import Vc
    from .vc.slicing import Slicer

INFERRED_COL = SYNTHETIC_COL  # columns from here on mark candidate clauses (never a real column)
HOUDINI_TIMEOUT = 30.0  # seconds per candidate VC (z3 in process), a safety net only
HOUDINI_RLIMIT = 6_000_000  # z3's resource units per candidate VC (about 4 s on an idle core)
HOUDINI_ROUNDS = 8


def _substitute(t: Term, name: str, by: Term) -> Term:
    if isinstance(t, Var) and t.name == name and not t.indices:
        return by
    return map_children(t, lambda c: _substitute(c, name, by))


def _simple(t: Term) -> bool:
    return not any(isinstance(s, At | Old | Quant | ThreadPred) for s in subterms(t))


def strides(loop: core.While, changed: set[str]) -> dict[str, Term]:
    """The variables the body changes only by `v = v + S` (one such assignment, S unchanged)."""
    out: dict[str, Term] = {}
    counts: dict[str, int] = {}
    for x in core.statements(loop.body):
        if isinstance(x, core.Assign) and not x.indices:
            counts[x.target] = counts.get(x.target, 0) + 1
            v = x.value
            if (
                isinstance(v, Binary)
                and v.op is BinOp.ADD
                and v.left == Var(x.target)
                and not (variable_names(v.right) & changed)
            ):
                out[x.target] = v.right
    # a stride of 1 says nothing (`x % 1 == 0`): such candidates cost solver time only
    return {v: st for v, st in out.items() if counts[v] == 1 and st != IntLit(1)}


def _mod(t: Term, m: Term) -> Term:
    return Binary(BinOp.MOD, t, m)


def scaled_counter(c: Term, changed: set[str]) -> tuple[Term, Term] | None:
    """(S, r) for an index `c` that is `X * S + r` (summands in any order, `X` reading what
    the loop changes, `S` and `r` not): the cells it names are `r` modulo S
    (`p[i * blockDim.x + threadIdx.x]` records cells `== threadIdx.x` modulo `blockDim.x`)."""
    scale: Term | None = None
    rest: list[Term] = []
    for x in operands(c, BinOp.ADD):
        if not (variable_names(x) & changed):
            rest.append(x)
            continue
        if not (isinstance(x, Binary) and x.op is BinOp.MUL):
            return None
        for counter, s in ((x.left, x.right), (x.right, x.left)):
            if variable_names(counter) & changed and not (variable_names(s) & changed) and _simple(s):
                break
        else:
            return None
        if s == IntLit(1) or (scale is not None and s != scale):
            return None
        scale = s
    if scale is None or not all(_simple(x) for x in rest):
        return None
    r: Term = IntLit(0)
    for x in rest:
        r = x if r == IntLit(0) else Binary(BinOp.ADD, r, x)
    return scale, r


def loop_candidates(ins: Instrumenter, loop: core.While, accesses: list[Access]) -> list[core.Formula]:
    from .race_instrument import flag, offset, value_of

    changed = core.assigned_vars(loop.body)
    steps = strides(loop, changed)
    gid = ins.global_id()
    terms: list[Term] = []
    for v, st in steps.items():
        # strided loops over the threads (`i = tid; ...; i += blockDim.x`): program facts
        terms.append(Binary(BinOp.EQ, _mod(Var(v), st), _mod(gid, st)))
    touched = sorted({(acc.array, acc.kind) for acc in accesses})
    if core.has_barrier(loop.body):
        # a barrier in the loop assigns the flags of every array: nothing recorded since it
        for a in sorted(ins.checked):
            terms += [Binary(BinOp.LE, Var(flag(a, kind)), IntLit(0)) for kind in ins.kinds(a)]
            # a log the loop never writes stays empty across it, but its barrier lowers the
            # flag (an assignment, so H-WHILE forgets it): without this, a store to global
            # memory after a tiled loop raced with a log of another block from nowhere
            terms += [
                Binary(BinOp.EQ, Var(flag(a, kind)), IntLit(0))
                for kind in ins.kinds(a)
                if (a, kind) not in touched
            ]
    for a, kind in touched:
        f = Var(flag(a, kind))
        recorded = Binary(BinOp.NE, f, IntLit(0))
        # (no `f <= 0` here: without a barrier in the loop, an access of it makes it false
        # after one iteration; with one, the candidates above have it already)
        for acc in accesses:
            if (acc.array, acc.kind) != (a, kind):
                continue
            if acc.value is not None and not (variable_names(acc.value) & changed):
                terms.append(Binary(BinOp.IMPLIES, recorded, Binary(BinOp.EQ, Var(value_of(a)), acc.value)))
            if not any(variable_names(c) & changed for c in acc.cell):
                same: Term = IntLit(1)
                for k, c in enumerate(acc.cell):
                    eq = Binary(BinOp.EQ, Var(offset(a, kind, k)), c)
                    same = eq if k == 0 else Binary(BinOp.AND, same, eq)
                terms.append(Binary(BinOp.IMPLIES, recorded, same))
                continue
            for k, c in enumerate(acc.cell):
                scaled = scaled_counter(c, changed)
                if scaled is not None:  # `cell % S == r % S` for a cell `i * S + r`
                    st, r = scaled
                    o = Var(offset(a, kind, k))
                    terms.append(Binary(BinOp.IMPLIES, recorded, Binary(BinOp.EQ, _mod(o, st), _mod(r, st))))
                if not (isinstance(c, Var) and not c.indices and c.name in changed):
                    continue
                o = Var(offset(a, kind, k))
                if c.name in steps:
                    st = steps[c.name]
                    terms.append(
                        Binary(BinOp.IMPLIES, recorded, Binary(BinOp.EQ, _mod(o, st), _mod(gid, st)))
                    )
                for inv in loop.invariants:
                    if _simple(inv.term) and variable_names(inv.term) & changed == {c.name}:
                        fact = _substitute(inv.term, c.name, Var(offset(a, kind, k)))
                        terms.append(Binary(BinOp.IMPLIES, recorded, fact))
    out: list[core.Formula] = []
    seen: set[Term] = set()
    where = loop.span or ins.kernel.span or Span("<kernel>", 1, 1)
    for t in terms:
        if t in seen:
            continue
        seen.add(t)
        col = INFERRED_COL + len(ins.candidates)
        from .pretty import show_term

        span = Span(where.path, where.line, col, (*where.context, f"the inferred invariant {show_term(t)}"))
        clause = core.Formula(t, span)
        ins.candidates[col] = clause
        out.append(clause)
    return out


def is_candidate(span: Span) -> bool:
    return span.col >= INFERRED_COL


def drop_candidates(kernel: core.Kernel, dropped: set[int]) -> core.Kernel:
    return replace(kernel, body=_drop(kernel.body, dropped)) if dropped else kernel


def _without_quantified(stmt: core.Stmt) -> core.Stmt:
    """The user's quantified loop invariants removed: hypotheses about array contents that
    the logs do not need and that slow the candidates' VCs down (weaker hypotheses: a
    candidate proved without them is proved with them)."""
    if isinstance(stmt, core.Seq):
        return replace(stmt, stmts=tuple(_without_quantified(s) for s in stmt.stmts))
    if isinstance(stmt, core.If):
        return replace(stmt, then=_without_quantified(stmt.then), orelse=_without_quantified(stmt.orelse))
    if isinstance(stmt, core.While):
        keep = tuple(
            f
            for f in stmt.invariants
            if is_candidate(f.span) or not any(isinstance(t, Quant) for t in subterms(f.term))
        )
        return replace(stmt, body=_without_quantified(stmt.body), invariants=keep)
    return stmt


def _drop(stmt: core.Stmt, dropped: set[int]) -> core.Stmt:
    if isinstance(stmt, core.Seq):
        return replace(stmt, stmts=tuple(_drop(s, dropped) for s in stmt.stmts))
    if isinstance(stmt, core.If):
        return replace(stmt, then=_drop(stmt.then, dropped), orelse=_drop(stmt.orelse, dropped))
    if isinstance(stmt, core.While):
        keep = tuple(f for f in stmt.invariants if f.span.col not in dropped)
        return replace(stmt, body=_drop(stmt.body, dropped), invariants=keep)
    return stmt


class _Prover:
    """z3 in this process (a worker process per candidate VC costs more than most proofs), in
    a z3 context of its own: z3's contexts are not thread-safe, and with other threads in the
    process (the language server's, a Dask client's) a garbage collection there could free
    objects of the shared main context while a query ran on it (a segfault seen in a test
    run). One converter serves a round's VCs: they share their paths (`Vc.hyps`), which it
    translates once, where a converter per VC made Houdini quadratic in the loops. Each VC
    is a fresh `Solver`, as pySMT's `Z3Solver` for UFLIRA (models on), given the VC's slice
    (`_proved`): what made a fresh solver per VC quadratic was the whole path it re-read.

    Why not one incremental solver per round (each shared hypothesis asserted once, in a
    scope of its own; tried twice, measured 3x faster on 100 loops): its survivors are not
    a fresh solver's, in both directions. Alone, it failed `write_flag(a) <= 0` in
    `showcase/bug_tree_reduction_pow2.cu` (a race VC then timed out). With a fresh re-check
    of what it leaves undecided, it proved `k % ntid == tid % ntid` in
    `vector_add_symbolic.cu`, which a fresh solver does not, and the user's z3 then timed
    out on that survivor's VC: verified became unknown. Incremental rounds to the fixpoint,
    then fresh rounds until one drops nothing, keep a fresh solver's survivors (every spec)
    but cost 29 % more inference over `specs/` (kernels of few loops pay the extra round)."""

    def __init__(self, env: Any) -> None:
        import z3
        from pysmt.solvers.z3 import Z3Converter

        self._z3 = z3
        self._ctx = z3.Context()
        self._converter = Z3Converter(env, z3_ctx=self._ctx)

    def proved(self, formula: Any) -> bool:
        """z3 proves `formula` valid within its limits."""
        z3 = self._z3
        solver = z3.Solver(ctx=self._ctx)
        solver.set("model", True)
        # a resource limit, not only a time limit: which candidates survive must not depend
        # on the machine's load (the time limit only bounds a pathological case)
        solver.set("timeout", int(HOUDINI_TIMEOUT * 1000))
        solver.set("rlimit", HOUDINI_RLIMIT)
        solver.add(z3.Not(self._converter.convert(formula)))
        return bool(solver.check() == z3.unsat)


def houdini(kernel: core.Kernel, launch: Launch, candidates: dict[int, core.Formula]) -> core.Kernel:
    """The kernel with the candidates that survive (module doc); the others removed."""
    from .driver import fresh_env
    from .smt.expand import ExpandThreadQuantifiers
    from .vc.generate import generate
    from .vc.kinds import VcKind
    from .vc.slicing import Slicer

    kinds = (VcKind.LOOP_INVARIANT_ENTRY, VcKind.LOOP_INVARIANT_PRESERVED)
    alive = set(candidates)
    # (access facts: about race logs the kernel of `loop_inference` does not have)
    final, kernel = (
        kernel,
        replace(without_facts(kernel), body=_without_quantified(without_facts(kernel).body)),
    )
    for _ in range(HOUDINI_ROUNDS):
        if not alive:
            break
        failed: set[int] = set()
        with fresh_env() as env:
            expand = ExpandThreadQuantifiers(env) if launch.threads is not None else None
            prover = _Prover(env)
            vcs = generate(kernel, env, launch)
            slicer = Slicer(env, (vc.hyps for vc in vcs))
            for vc in vcs:
                col = vc.origin.span.col
                wanted = vc.origin.kind in kinds and col in alive and col not in failed
                if wanted and not _proved(vc, slicer, prover, expand):
                    failed.add(col)
        if not failed:
            break
        alive -= failed
        kernel = drop_candidates(kernel, failed)
    else:
        alive = set()  # did not settle: keep none
    return drop_candidates(final, set(candidates) - alive)


def _proved(vc: Vc, slicer: Slicer, prover: _Prover, expand: Any) -> bool:
    """The VC's slice first (`vc.slicing`: valid only if the VC is; a loop's candidate
    depends on a loop or two, not on the whole path before it), then, where the slice is
    not proved, the VC itself: a countermodel of the slice may violate a dropped hypothesis
    (facts flow through the hubs: `n <= m` from `y = n; assume y <= m`), so Houdini keeps
    every candidate a whole VC proves. Measured over the specs: the survivors of whole VCs,
    and one more (`all_none.cu`, where the whole VC runs out of z3's limit); 300 sequential
    loops: 28 s of CPU, was 1,384 s."""

    def valid(f: Any) -> bool:
        return prover.proved(expand.walk(f) if expand is not None else f)

    return valid(slicer.formula(vc.hyps, vc.obligation)) or valid(vc.formula)


def survivors(kernel: core.Kernel) -> tuple[tuple[Span, str], ...]:
    """The inferred invariants left in `kernel` (Houdini's survivors): per loop, the loop's
    span and the clause as text (`verify --show-invariants`)."""
    from .pretty import show_term

    out: list[tuple[Span, str]] = []
    for s in core.statements(kernel.body):
        if isinstance(s, core.While):
            out += [(f.span, _readable(show_term(f.term))) for f in s.invariants if is_candidate(f.span)]
    return tuple(out)


def _readable(text: str) -> str:
    """Ghost names in words: `hg.race.write.a` is the flag of a's write log, `.0` its cell."""
    import re

    text = re.sub(r"hg\.race\.(read|write|atomic)\.(\w+)\.(\d+)", r"\1_cell(\2)[\3]", text)
    text = re.sub(r"hg\.race\.(read|write|atomic)\.(\w+)", r"\1_flag(\2)", text)
    return re.sub(r"hg\.race\.value\.(\w+)", r"written_value(\1)", text)
