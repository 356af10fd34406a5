"""The race kernel: the kernel with race checks whose VCs say that it has no data race
(spec-language §5; paper Definition 5.4; docs/races.md).

`race_kernel` instruments the kernel (the ghost logs and checks of hoaregpu.race_instrument),
keeps the blocks the kernel cannot tell apart (`with_blocks`), applies the benign-write
policy (`tolerant_arrays`), reads access facts as the logs, leaves out stores nothing reads
(`without_unread_stores`) and adds the loop invariants about the logs that Houdini proves
(hoaregpu.race_invariants). `race_vcs` picks which of its VCs are proved: the race checks
and those of inferred invariants and access facts; the kernel's own VCs are proved on the
kernel itself.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from . import access_facts, core
from .grid import live_coords, per_block_shared, with_contract
from .launch import Coord, Launch
from .race_instrument import Instrumenter, Site, flag, sequence
from .term_walk import subterms
from .terms import IntLit, Term, Var
from .vc.kinds import Origin, VcKind

# Which writes of the same value by two threads are tolerated (docs/races.md, "Benign writes"):
# every one (Definition 5.4(b), the default); only those whose value reads no memory, directly
# or through a local (GPUVerify's default, whose threads may read different values from one
# cell); none (GPUVerify's --no-benign-tolerance). Each is sound: tolerating fewer only adds
# races.
SAME_VALUE, UNREAD_VALUES, NO_BENIGN = "same-value", "unread-values", "none"
BENIGN_WRITES = (SAME_VALUE, UNREAD_VALUES, NO_BENIGN)


def memory_writes(kernel: core.Kernel) -> tuple[set[str], set[str]]:
    """The memory arrays some statement writes, and those an atomic updates."""
    written: set[str] = set()
    atomic: set[str] = set()
    for s in core.statements(kernel.body):
        if isinstance(s, core.Assign):
            written.add(s.target)
        elif isinstance(s, core.Opaque):
            written |= set(s.havoc)
            if s.atomic is not None:
                atomic.add(s.atomic.target)
    memory = {d.name for d in kernel.decls if d.kind is core.VarKind.SHARED}
    return written & memory, atomic & memory


def tolerant_arrays(kernel: core.Kernel, written: set[str], benign: str) -> frozenset[str]:
    """The arrays of `written` whose same-value writes are tolerated under the policy
    `benign` (`BENIGN_WRITES`). UNREAD_VALUES: those whose every written value reads no memory
    array, neither directly nor through a local that some assignment (or a call, or an
    atomic's result) may have given a value read from memory (flow-insensitive, so it may
    tolerate fewer than GPUVerify: never more)."""
    if benign not in BENIGN_WRITES:
        raise ValueError(f"benign writes: {benign!r} is not one of {', '.join(BENIGN_WRITES)}")
    if benign == SAME_VALUE:
        return frozenset(written)
    if benign == NO_BENIGN:
        return frozenset()
    # memory: arrays, and the scalars some thread writes (a parameter never written is one
    # value for every thread)
    memory = {
        d.name for d in kernel.decls if d.kind is core.VarKind.SHARED and (d.dim > 0 or d.name in written)
    }
    assigns = [s for s in core.statements(kernel.body) if isinstance(s, core.Assign)]
    tainted = set(memory)
    for s in core.statements(kernel.body):
        if isinstance(s, core.Opaque):  # a call's or an atomic's results: not known equal
            tainted |= set(s.havoc)
    changed = True
    while changed:
        changed = False
        for a in assigns:
            if a.target not in tainted and _reads_any(a.value, tainted):
                tainted.add(a.target)
                changed = True
    return frozenset(
        x for x in written if not any(a.target == x and _reads_any(a.value, tainted) for a in assigns)
    )


def _reads_any(t: Term, names: set[str]) -> bool:
    return any(isinstance(s, Var) and s.name in names for s in subterms(t))


def race_kernel(
    kernel: core.Kernel, launch: Launch, check_races: bool = True, benign: str = SAME_VALUE
) -> tuple[core.Kernel, Launch, dict[int, Site]]:
    """The kernel whose VCs `race_vcs` selects, and its launch (`with_blocks`): `instrument`ed,
    with the inferred loop invariants about the logs that are proved
    (hoaregpu.race_invariants), its access facts read as the logs (hoaregpu.access_facts),
    without the `ensures` that state none.

    Its other VCs (the user's asserts, loop invariants, barriers) are the kernel's own, proved
    without the ghost code; here they are hypotheses of the race VCs. That is sound: ghost
    code changes no program variable, and the user's loop invariants are inductive without
    the inferred ones, which are proved inductive assuming both (so together they are).

    A race check is an assert: the VC generator assumes it after proving it, and the later
    VCs (access facts, inferred invariants) may rest on it. With `check_races` off
    (`--assume-race-free`) the checks are not proved, so they are left out altogether (the
    logs stay): an unproved "no conflict here" would prune the paths where another thread
    recorded its access, and a false access fact would verify."""
    from .race_invariants import houdini

    facts = access_facts.spans(kernel)
    blocks, launch = with_blocks(kernel, launch)
    checked, sites, candidates = _instrument(blocks, benign)
    if not check_races:
        checked = replace(checked, body=_without_checks(checked.body))
    # the `ensures` with access facts are proved here (`race_vcs`), the others in the kernel
    ensures = tuple(f for f in checked.ensures if (f.span.path, f.span.line, f.span.col) in facts)
    checked = without_unread_stores(replace(checked, ensures=ensures))
    return (houdini(checked, launch, candidates) if candidates else checked), launch, sites


def _without_checks(stmt: core.Stmt) -> core.Stmt:
    """`stmt` with its race checks (asserts of kind `data-race`) skipped."""
    return _skipping(stmt, lambda s: isinstance(s, core.Assert) and s.check is core.CheckKind.DATA_RACE)


def _skipping(stmt: core.Stmt, skipped: Callable[[core.Stmt], bool]) -> core.Stmt:
    """`stmt` with the statements `skipped` picks replaced by `skip`."""
    if skipped(stmt):
        return core.Skip(stmt.span)
    if isinstance(stmt, core.Seq):
        return replace(stmt, stmts=tuple(_skipping(s, skipped) for s in stmt.stmts))
    if isinstance(stmt, core.If):
        return replace(stmt, then=_skipping(stmt.then, skipped), orelse=_skipping(stmt.orelse, skipped))
    if isinstance(stmt, core.While):
        return replace(stmt, body=_skipping(stmt.body, skipped))
    return stmt


def with_blocks(kernel: core.Kernel, launch: Launch, runs: bool = False) -> tuple[core.Kernel, Launch]:
    """The kernel and launch of the race checks, with the block coordinates that may take
    several values, when the kernel writes global memory.

    A kernel that does not read a block coordinate has it collapsed to one block
    (hoaregpu.grid), which is right for its own VCs (every block does the same) but not for
    races: each block accesses the same global cells, so `a[threadIdx.x] += 1` races
    between two blocks. Those coordinates are `blockIdx.x` unless the launch fixes
    `gridDim.x == 1` (an open grid has at least its x axis, as a block has `threadIdx.x`),
    and `.y`/`.z` where the launch fixes more than one block (an open `.y`/`.z` of a kernel
    that reads neither is 1, as an unread thread coordinate is: docs/races.md).

    Each such coordinate is kept (`core.Kernel.kept`) with exactly **2** blocks: the kernel
    cannot tell its blocks apart, and blocks share nothing but global memory, through
    which any exchange between two blocks is itself a race (no atomics: they make every
    block coordinate live, hoaregpu.grid). So up to the first race each block runs on its
    own, and two blocks race in a grid of any size iff they race as a grid of two; two
    blocks are also far cheaper for the solver than a symbolic count. `__shared__` memory
    gets its index per block of those coordinates, so that the blocks do not share it.

    `runs`: for the interpreters (`hoaregpu run`/`test`), which execute what the launch
    says: a size the launch fixes stays (two blocks only where it is open)."""
    written, _ = memory_writes(kernel)
    if not written - {d.name for d in kernel.decls if d.role is core.VarRole.SHARED_ARRAY}:
        return kernel, launch
    live = live_coords(kernel)

    fixed = with_contract(kernel, launch)  # `requires gridDim.x == 1` too

    def several(axis: int) -> bool:
        size = fixed.grid[axis]
        return (size or 1) > 1 or (axis == 0 and size is None)

    missing = [Coord(True, axis) for axis in range(3) if Coord(True, axis) not in live and several(axis)]
    if not missing:
        return kernel, launch

    def two_blocks(sizes: Launch) -> Launch:
        def size(axis: int) -> int | None:
            if Coord(True, axis) not in missing:
                return sizes.grid[axis]
            return sizes.grid[axis] or 2 if runs else 2

        grid = [size(axis) for axis in range(3)]
        return replace(sizes, grid=(grid[0], grid[1], grid[2]))

    kept = replace(kernel, kept=kernel.kept | set(missing), launch=two_blocks(kernel.launch))
    return per_block_shared(kept, missing), two_blocks(launch)


def without_unread_stores(kernel: core.Kernel) -> core.Kernel:
    """The kernel without its assignments to memory arrays that nothing reads (no term of
    the kernel, its contract, invariants, assertions or ghost code, and no atomic, whose
    result is the cell's old value). Such an array's contents change no other variable, so
    every VC means what it meant; the race checks and logs of those stores are statements
    of their own and stay. The stores only cost: a write of `p[gid]` over a grid makes the
    solver invert the thread numbering to build a model of the array's new contents, and z3
    found no counterexample in minutes to the race a kernel writing `p[gid + 1]` has.
    (A racy store's value is of no consequence either: no one reads it.)"""
    from .grid import kernel_terms

    memory = {d.name for d in kernel.decls if d.kind is core.VarKind.SHARED}
    read: set[str] = set()
    for t in kernel_terms(kernel):
        read |= {s.name for s in subterms(t) if isinstance(s, Var) and s.name in memory}
    for s in core.statements(kernel.body):
        if isinstance(s, core.Opaque) and s.atomic is not None:
            read.add(s.atomic.target)
    unread = memory - read
    if not unread:
        return kernel

    return replace(
        kernel, body=_skipping(kernel.body, lambda s: isinstance(s, core.Assign) and s.target in unread)
    )


def is_race_vc(origin: Origin) -> bool:
    """A VC of `race_kernel` that the kernel itself does not have: a race check, or an
    inferred invariant's entry or preservation."""
    from .race_invariants import is_candidate

    return origin.kind is VcKind.DATA_RACE or is_candidate(origin.span)


def race_vcs(kernel: core.Kernel, check_races: bool) -> Callable[[Origin], bool] | None:
    """Which VCs of `race_kernel(kernel)` are proved (None: no race kernel is needed): those
    of `is_race_vc` and of the clauses with access facts (hoaregpu.access_facts), which
    only the race kernel can read; with `check_races` off (`--assume-race-free`) those of the
    clauses with access facts and of the inferred invariants, when the kernel states access
    facts (they are never left unproved; that race kernel has no race checks, `race_kernel`)."""
    from .race_invariants import is_candidate

    facts = access_facts.spans(kernel)
    if not check_races and not facts:
        return None

    def keep(origin: Origin) -> bool:
        s = origin.span
        if (s.path, s.line, s.col) in facts:
            return True
        return is_race_vc(origin) if check_races else is_candidate(s)

    return keep


def instrument(kernel: core.Kernel) -> tuple[core.Kernel, dict[int, Site]]:
    """`_instrument` without the candidate loop invariants."""
    from .race_invariants import drop_candidates

    checked, sites, candidates = _instrument(kernel)
    return drop_candidates(checked, set(candidates)), sites


def _instrument(
    kernel: core.Kernel, benign: str = SAME_VALUE
) -> tuple[core.Kernel, dict[int, Site], dict[int, core.Formula]]:
    """The kernel with race checks (module doc), and its access sites; unchanged when no
    memory is written. Device functions with contracts write no memory: their reads are
    checked at the call."""
    written, atomic = memory_writes(kernel)
    memory = {d.name for d in kernel.decls if d.kind is core.VarKind.SHARED}
    logged = written | (access_facts.read_arrays(kernel) & memory)
    if kernel.device or not logged:
        return access_facts.translated(kernel, lambda a: ()), {}, {}
    live = live_coords(kernel)
    glob = {d.name for d in kernel.decls if d.role is not core.VarRole.SHARED_ARRAY}
    args = (
        kernel,
        frozenset(logged),
        frozenset(atomic),
        frozenset(glob & logged),
        [c for c in live if not c.block],
        [c for c in live if c.block],
        tolerant_arrays(kernel, written, benign),
    )
    first = Instrumenter(*args, written=frozenset(written))
    first.stmt(kernel.body)  # which logs the accesses write
    ins = Instrumenter(*args, present=frozenset(first.logged), written=frozenset(written))
    start = [
        core.Assign(flag(a, kind), (), IntLit(0), kernel.span)
        for a in sorted(ins.checked)
        for kind in ins.kinds(a)
    ]
    body = sequence([*start, ins.stmt(kernel.body)])
    out = replace(kernel, body=body, decls=(*kernel.decls, *ins.ghost_decls()))
    logs = ins.kinds
    return (
        access_facts.translated(out, lambda a: logs(a) if a in ins.checked else ()),
        ins.sites,
        ins.candidates,
    )
