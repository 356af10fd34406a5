"""Loop invariants guessed and pruned Houdini-style, for the loops that carry none (and the
variables a user's invariants leave unsaid).

A loop without a `loop invariant` that `hoaregpu.unroll` could not unroll is taken with the
invariant `true` by H-WHILE, which forgets everything about the variables it assigns: a
kernel as plain as `for (int i = 0; i < n; i++) __assert(i >= 0);` then fails, and every
barrier in a loop whose counter all threads share is reported as divergent. GPUVerify infers
the invariants such loops need; so does this pass (issue 11, item 4), from candidates read
off the loop (`candidates`), for each per-thread scalar `v` the body assigns whose value
at the loop head is read (not an inner loop's counter, set anew in every iteration and
read nowhere after: `dead_at_head`; no invariant about it can help a VC). A loop with
invariants of the user's gets candidates too, about the variables those invariants do not
read (as GPUVerify, which infers beside a user's invariants: its
`inference_tests/disabled_invariant` states an access fact only and needs the counter's
uniformity), and, in a loop with a barrier, the uniformity `v == v @ 0` of the variables
they do read (a tiled loop's `0 <= m && m <= n / TILE` leaves it unsaid, and its barriers
need it); the user's invariants stay as written. The candidates:

- `v == v @ 0`: the value is the same in every thread (loop counters of uniform loops:
  what barriers inside them need); on several blocks, in a loop with a barrier, also
  `v == v @ (0, 0)`, the same in every thread of the grid (`_uniform`);
- `v >= e0` and `v <= e0`, where `v = e0` is the last assignment before the loop and `e0`
  reads nothing the loop changes (monotone counters);
- `v % S == e0 % S` when the body steps `v = v + S`, `S` unchanged by the loop (strides);
- from a comparison `v < B` of the loop condition (`B` unchanged): `v <= B`, and likewise
  `v <= B + 1`, `v >= B`, `v >= B - 1` for `<=`, `>`, `>=` (the counter's last value).

`race_invariants.houdini` proves the candidates' entry and preservation VCs with z3 under a
resource limit, drops those not proved, and repeats until the rest is inductive. The
survivors stay in the kernel as loop invariants, so their VCs are proved once more with the
solver the user chose, like the user's own: an inferred invariant never makes a kernel
verify unless it holds. Candidates are marked by columns from `FUNCTIONAL_COL` on (above the
race candidates' range, so that the race pass, which runs later on the same kernel, cannot
take a survivor for one of its own candidates).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import fields, is_dataclass, replace

from . import core
from .candidate_runs import refuted
from .errors import Span
from .grid import is_multi_block, live_coords
from .launch import Launch
from .pretty import show_term
from .race_invariants import drop_candidates, houdini, strides
from .term_walk import conjuncts, subterms, variable_names
from .terms import At, Binary, BinOp, IntLit, Term, Var
from .transform import make_monotonic
from .unroll import MissingInvariant
from .unroll_shape import split_flags

FUNCTIONAL_COL = 200_000  # candidate columns of this pass (race_invariants.INFERRED_COL is below)

_LAST_VALUE = {  # the comparison `v op B` of a loop condition → the bound `v op' B + k` after it
    BinOp.LT: (BinOp.LE, 0),
    BinOp.LE: (BinOp.LE, 1),
    BinOp.GT: (BinOp.GE, 0),
    BinOp.GE: (BinOp.GE, -1),
}


def _reads_arrays(t: Term) -> bool:
    return any(isinstance(s, Var) and s.indices for s in subterms(t))


def _plus(t: Term, k: int) -> Term:
    return t if k == 0 else Binary(BinOp.ADD, t, IntLit(k))


def _mentions(x: object, out: set[str]) -> set[str]:
    """Every variable name a statement, formula or term reads or assigns, nested ones too
    (whatever the statement kind: a field holding a term, formula or statement is walked)."""
    todo = [x]
    while todo:
        y = todo.pop()
        if isinstance(y, Term):
            out |= variable_names(y)
        elif isinstance(y, core.Formula):
            out |= variable_names(y.term)
        elif isinstance(y, tuple | list):
            todo.extend(y)
        elif is_dataclass(y) and not isinstance(y, type):
            if isinstance(y, core.Assign):
                out.add(y.target)
            if isinstance(y, core.Opaque):
                out.update(y.havoc)
            todo.extend(getattr(y, f.name) for f in fields(y))
    return out


def _stmts(s: core.Stmt) -> tuple[core.Stmt, ...]:
    return s.stmts if isinstance(s, core.Seq) else (s,)


def _mentioned(s: core.Stmt, memo: dict[int, set[str]]) -> set[str]:
    found = memo.get(id(s))
    if found is None:
        found = memo[id(s)] = _mentions(s, set())
    return found


def _dead_in(stmts: tuple[core.Stmt, ...], v: str, memo: dict[int, set[str]]) -> bool:
    """No statement of the sequence reads the value `v` has before it: the first one that
    mentions `v` assigns it from what does not read it, or every one before that is a loop
    whose head does not mention `v` and whose body is such a sequence (`for (int j = 0; ...)`
    of an inner loop, nested at any depth)."""
    for s in stmts:
        if v not in _mentioned(s, memo):
            continue
        if isinstance(s, core.Assign) and s.target == v and not s.indices:
            return v not in variable_names(s.value)
        if (
            isinstance(s, core.While)
            and v not in _mentions(_heads(s), set())
            and _dead_in(_stmts(s.body), v, memo)
        ):
            continue
        return False
    return True


def dead_at_head(kernel: core.Kernel, loop: core.While, changed: set[str]) -> set[str]:
    """The variables `changed` by the loop whose value at its head no one reads: not its
    body (`_dead_in`), and nothing outside the body (so the value a thread keeps when it
    leaves the loop is not read either). No invariant about them can help a VC."""
    memo: dict[int, set[str]] = {}  # each statement's mentions once, not once per variable
    dead = {v for v in changed if _dead_in(_stmts(loop.body), v, memo)}
    if not dead:
        return dead
    inside = {id(x) for x in core.statements(loop.body)}
    outside: set[str] = set()
    for s in core.statements(kernel.body):
        if id(s) in inside or isinstance(s, core.Seq):
            continue
        _mentions(_heads(s) if isinstance(s, core.While | core.If | core.Opaque) else s, outside)
    _mentions((kernel.requires, kernel.ensures), outside)
    return dead - outside


def _heads(s: core.Stmt) -> object:
    """What a compound statement mentions itself (its parts are visited on their own)."""
    if isinstance(s, core.While):
        return (s.cond, s.invariants)
    if isinstance(s, core.If):
        return s.cond
    assert isinstance(s, core.Opaque)
    return tuple(getattr(s, f.name) for f in fields(s) if f.name != "body")


def _initial(before: tuple[core.Stmt, ...], v: str, changed: set[str]) -> Term | None:
    """`e0` of the last `v = e0` among the statements before the loop, if nothing between
    assigns `v` or what `e0` reads, and the loop changes nothing `e0` reads."""
    between: set[str] = set()
    for s in reversed(before):
        if isinstance(s, core.Assign) and s.target == v and not s.indices:
            e0 = s.value
            if variable_names(e0) & (changed | between) or _reads_arrays(e0):
                return None
            return e0
        assigned = core.assigned_vars(s)
        if v in assigned or not isinstance(s, core.Assign | core.Skip | core.Assert | core.Assume):
            return None  # a branch, loop or call may assign it: the pattern is not plain
        between |= assigned
    return None


def _uniform(x: Var, grid_wide: bool) -> list[Term]:
    """`x == x @ 0`: the same in every thread of the block; with `grid_wide` (a loop with a
    barrier, on several blocks) also `x == x @ (0, 0)`, the same in every thread of the grid
    (a counter bounded by a parameter). Per block, `x @ 0` is a term of the thread, and z3
    loops on `∀t. x(t) = x(first(t))` (first(first(t)), ...): it proved neither a tiled
    loop's barrier nor the uniformity's preservation; `x` at thread 0 of block 0 is one
    ground term. A counter that depends on `blockIdx` keeps the per-block one. (Only barriers
    need uniformity, and a false candidate costs Houdini z3's resource limit: loops without
    a barrier do not get the second.)"""
    out: list[Term] = [Binary(BinOp.EQ, x, At(x, IntLit(0)))]
    if grid_wide:
        out.append(Binary(BinOp.EQ, x, At(x, IntLit(0), None, IntLit(0))))
    return out


def candidates(
    kernel: core.Kernel,
    loop: core.While,
    before: tuple[core.Stmt, ...],
    said: frozenset[str] = frozenset(),
    original: core.While | None = None,
) -> list[Term]:
    """The candidate invariants of `loop` (module doc); `before`: the statements before it in
    its sequence; `said`: the variables the user's invariants of the loop read (only their
    uniformity is guessed, in a loop with a barrier)."""
    changed = core.assigned_vars(loop.body)
    # (on the loop as in `kernel`: `loop`'s inner loops may carry candidates already)
    dead = dead_at_head(kernel, original or loop, changed)
    plain = sorted(
        v
        for v in changed
        if v not in dead
        and kernel.has_decl(v)
        and kernel.decl(v).kind is core.VarKind.LOCAL
        and kernel.decl(v).dim == 0
        and kernel.decl(v).role is not core.VarRole.SYNTHETIC
        and not kernel.decl(v).floating
    )
    scalars = [v for v in plain if v not in said]
    out: list[Term] = []
    barrier = core.has_barrier(loop.body)
    grid_wide = barrier and is_multi_block(live_coords(kernel))
    if barrier:
        # a barrier in the loop needs its counter uniform, which the user's invariants about
        # the counter (`0 <= m && m <= n / 2`) rarely say: GPUVerify infers it beside them
        stated = {c for f in loop.invariants for c in conjuncts(f.term)}
        uniform = [t for v in plain if v in said for t in _uniform(Var(v), grid_wide)]
        out += [t for t in uniform if t not in stated]
    # strides read from memory (`acc += a[i]`) make `%` candidates the solvers choke on
    steps = {v: s for v, s in strides(loop, changed).items() if not _reads_arrays(s)}
    _, cond = split_flags(kernel, loop.cond)
    for v in scalars:
        x = Var(v)
        out += _uniform(x, grid_wide)
        e0 = _initial(before, v, changed)
        if e0 is not None:
            out += [Binary(BinOp.GE, x, e0), Binary(BinOp.LE, x, e0)]
            if v in steps and steps[v] not in (IntLit(1), IntLit(-1)):
                s = steps[v]
                out.append(Binary(BinOp.EQ, Binary(BinOp.MOD, x, s), Binary(BinOp.MOD, e0, s)))
    for c in conjuncts(cond):
        if not (isinstance(c, Binary) and c.op in _LAST_VALUE):
            continue
        op, k = _LAST_VALUE[c.op]
        if isinstance(c.left, Var) and c.left.name in scalars and not c.left.indices:
            bound = c.right
            if not (variable_names(bound) & changed) and not _reads_arrays(bound):
                out.append(Binary(op, c.left, _plus(bound, k)))
    seen: set[Term] = set()
    return [t for t in out if not (t in seen or seen.add(t))]  # type: ignore[func-returns-value]


def with_candidates(
    kernel: core.Kernel, missing: Iterable[MissingInvariant]
) -> tuple[core.Kernel, dict[int, core.Formula]]:
    """The kernel with candidate invariants on each loop listed in `missing` (matched by its
    span) and on each loop with user invariants that leave a variable the body assigns
    unmentioned (candidates about those variables only: the user's own invariants stay as
    they are), and the candidates by column."""
    where = {(m.span.path, m.span.line, m.span.col) for m in missing}
    found: dict[int, core.Formula] = {}

    def go(s: core.Stmt, before: tuple[core.Stmt, ...]) -> core.Stmt:
        if isinstance(s, core.Seq):
            stmts: list[core.Stmt] = []
            for x in s.stmts:
                stmts.append(go(x, (*before, *stmts)))
            return core.Seq(tuple(stmts), s.span)
        if isinstance(s, core.If):
            return core.If(s.cond, go(s.then, ()), go(s.orelse, ()), s.span)
        if isinstance(s, core.While):
            loop = replace(s, body=go(s.body, ()))
            span = s.span
            if span is None:
                return loop
            if s.invariants:
                said = frozenset(n for f in s.invariants for n in variable_names(f.term))
            elif (span.path, span.line, span.col) in where:
                said = frozenset()
            else:
                return loop
            guessed = list(s.invariants)
            for t in candidates(kernel, loop, before, said, s):
                col = FUNCTIONAL_COL + len(found)
                note = f"the inferred invariant {show_term(t)}"
                clause = core.Formula(t, Span(span.path, span.line, col, (*span.context, note)))
                found[col] = clause
                guessed.append(clause)
            return replace(loop, invariants=tuple(guessed))
        return s

    return replace(kernel, body=go(kernel.body, ())), found


def inferred(program: core.Kernel, launch: Launch, candidates_: dict[int, core.Formula]) -> core.Kernel:
    """The kernel, transformed (§4.1, `make_monotonic`), with the candidates that `houdini`
    proves inductive, the others removed. The candidates a run of `program` shows false are
    dropped first (`candidate_runs`: Houdini would spend z3's resource limit on each)."""
    dropped = refuted(program, launch, candidates_) if candidates_ else set()
    kernel = make_monotonic(drop_candidates(program, dropped))
    alive = {c: f for c, f in candidates_.items() if c not in dropped}
    return houdini(kernel, launch, alive) if alive else kernel


def without_implied(kernel: core.Kernel) -> core.Kernel:
    """Each loop's inferred `x == x @ 0` dropped when the loop keeps `x == x @ (0, 0)`: for
    every thread t (in range), x(t) = x(T0) and x(first(t)) = x(T0) (first(t), thread 0 of
    t's block, is a thread in range), so the grid's uniformity implies the block's, and the
    loop's VCs are equivalent without it (its entry and preservation follow from the other's,
    and every hypothesis it gave follows from the other). Dropping an invariant only weakens
    what the VCs assume, so this is sound whatever the argument. It is not harmless to keep:
    `∀t. x(t) = x(first(t))` is a term of the thread, a matching loop for z3 (`_uniform`); on the
    symbolic tiled matrix multiplication it alone made the tile assertion time out at 60 s
    (0.4 s without it). Dropped for the kernel's own VCs only (`driver.prepare_kernel`): a race
    check needs it (`specs/bug_grid_tiled_loop.cu`'s race is refuted in 0.9 s with it, 16 s
    without), and it is sound to assume there, since it follows from the grid's."""

    def go(s: core.Stmt) -> core.Stmt:
        if isinstance(s, core.Seq):
            return replace(s, stmts=tuple(go(x) for x in s.stmts))
        if isinstance(s, core.If):
            return replace(s, then=go(s.then), orelse=go(s.orelse))
        if isinstance(s, core.While):
            body = go(s.body)
            grid = {
                f.term.left
                for f in s.invariants
                if isinstance(f.term, Binary)
                and f.term.op is BinOp.EQ
                and isinstance(f.term.right, At)
                and f.term.right == At(f.term.left, IntLit(0), None, IntLit(0))
            }
            keep = tuple(
                f
                for f in s.invariants
                if not (
                    f.span.col >= FUNCTIONAL_COL
                    and isinstance(f.term, Binary)
                    and f.term.op is BinOp.EQ
                    and f.term.left in grid
                    and f.term.right == At(f.term.left, IntLit(0))
                )
            )
            return replace(s, body=body, invariants=keep)
        return s

    return replace(kernel, body=go(kernel.body))


def survivors(kernel: core.Kernel) -> list[core.Formula]:
    """The inferred invariants the kernel keeps, in source order."""
    out = [
        f
        for s in core.statements(kernel.body)
        if isinstance(s, core.While)
        for f in s.invariants
        if f.span.col >= FUNCTIONAL_COL
    ]
    return sorted(out, key=lambda f: (f.span.line, f.span.col))
