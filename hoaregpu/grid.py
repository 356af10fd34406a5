"""Grids of blocks (spec-language §5): launch sizes, the thread domain, per-block shared memory.

A thread is the tuple (block, thread-in-block). Every stage keeps the paper's single
thread index: threads are numbered 0..N-1 in mixed radix over the *live* coordinates
(`threadIdx.x` first, then `.y`, `.z`, `blockIdx.x`, `.y`, `.z`), and each coordinate is a
function of that number. A coordinate is live when the kernel or its contract reads it or
its size (`threadIdx.y` or `blockDim.y`; `threadIdx.x` always is). The size of every other
coordinate is 1 in the model: a kernel that reads neither `blockIdx` nor `gridDim` is
verified for one block, as the README says. (Threads that differ only in an unread
coordinate are not exact copies: their uninitialised locals and `__shared__` memory may
differ, which a review showed can be observed; so they are not assumed away.)

Why lockstep over the whole grid is a sound model of independent blocks: CUDA runs the
blocks in any order and interleaving, with `__syncthreads()` ordering the threads of one
block only. Running all blocks in lockstep is one of those schedules (each block reaches
its barriers with all its threads, as the strict rule of §7 demands per block). For a
kernel without data races, Cor. 5.6/5.7 of the paper make every schedule end in the same
state, so the lockstep result is the result; blocks share only global memory, and any
two accesses by different blocks to one global cell with a write among them are a race,
since no barrier orders them. `tests/test_grid.py` runs kernels with the blocks
interleaved and compares.

A grid barrier (cooperative groups' `grid_group::sync()`) keeps this argument: lockstep is
still one schedule (every thread of the grid meets there, as the strict rule over the grid
demands, checked by `Encoder.grid_uniform` and the interpreters), and accesses of different
blocks separated by one are ordered by it. Such a kernel has every block coordinate live.

`__shared__` memory is per block: lowering gives every `__shared__` variable of a kernel
with several live block coordinates one more index per live block coordinate, read at
the accessing thread's `blockIdx` (`per_block_shared`). Pointer parameters stay global.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

from . import core
from .errors import ConfigError
from .launch import ALL_COORDS, THREAD_X, Coord, Geometry, Launch
from .term_walk import children, conjuncts, map_children
from .terms import Binary, BinOp, BlockCount, BlockId, IntLit, Term, ThreadCount, ThreadId, Var


def literal_equalities(requires: tuple[core.Formula, ...]) -> Iterator[tuple[Term, int]]:
    """`(e, K)` for each top-level conjunct `e == K` or `K == e` of `requires` (K a literal)."""
    for f in requires:
        for t in conjuncts(f.term):
            if isinstance(t, Binary) and t.op is BinOp.EQ:
                for a, b in ((t.left, t.right), (t.right, t.left)):
                    if isinstance(b, IntLit):
                        yield a, b.value


def fixed_by_requires(requires: tuple[core.Formula, ...]) -> Launch:
    """`requires blockDim.y == 4;` / `gridDim.x == 2` (top-level conjuncts, literal sizes)."""
    block: list[int | None] = [None, None, None]
    grid: list[int | None] = [None, None, None]
    for a, value in literal_equalities(requires):
        if isinstance(a, ThreadCount | BlockCount) and value >= 1:
            (grid if isinstance(a, BlockCount) else block)[a.axis] = value
    return Launch((block[0], block[1], block[2]), (grid[0], grid[1], grid[2]))


def with_contract(kernel: core.Kernel, launch: Launch) -> Launch:
    """The sizes the kernel's `requires` and `launch` (the command line) fix together."""

    def conflict(name: str, ours: int, theirs: int) -> str:
        given = f"--threads {theirs}" if name == "blockDim.x" else f"the command line's {name} = {theirs}"
        return f"{given} contradicts 'requires {name} == {ours}' of kernel {kernel.name}"

    return kernel.launch.merged(launch, conflict)


# -- which coordinates a kernel reads ----------------------------------------------------


def kernel_terms(kernel: core.Kernel) -> Iterator[Term]:
    """Every term of the kernel: contract, statements, invariants, assertions."""
    for f in (*kernel.requires, *kernel.ensures):
        yield f.term
    yield from _stmt_terms(kernel.body)


def _stmt_terms(stmt: core.Stmt) -> Iterator[Term]:
    for s in core.statements(stmt):
        if isinstance(s, core.Assign):
            yield from s.indices
            yield s.value
        elif isinstance(s, core.If):
            yield s.cond
        elif isinstance(s, core.While):
            yield s.cond
            yield from (inv.term for inv in s.invariants)
        elif isinstance(s, core.Assert | core.Assume):
            yield s.formula.term
        elif isinstance(s, core.Opaque) and s.atomic is not None:
            yield from (*s.atomic.indices, *s.atomic.operands)
        elif isinstance(s, core.Sync) and s.grid:
            # a grid barrier relates the blocks: every block coordinate is live, so that
            # blocks differing only there are not assumed to reach it together
            yield from (BlockId(s.span, axis) for axis in range(3))


def _mentioned(t: Term, out: set[Coord]) -> None:
    stack = [t]
    while stack:
        x = stack.pop()
        if isinstance(x, ThreadId | BlockId | ThreadCount | BlockCount):
            out.add(Coord(isinstance(x, BlockId | BlockCount), x.axis))
        stack.extend(children(x))


def live_coords(kernel: core.Kernel) -> tuple[Coord, ...]:
    """The coordinates the model has, in linearisation order: those whose index or size the
    kernel reads; `threadIdx.x` always; in a kernel with atomics every thread coordinate,
    and every block coordinate when they update global memory. The others have size 1."""
    seen: set[Coord] = {THREAD_X, *kernel.kept}
    for t in kernel_terms(kernel):
        _mentioned(t, seen)
    scopes = atomic_scopes(kernel)
    if scopes:
        seen |= {c for c in ALL_COORDS if not c.block or "global" in scopes}
    # a size the launch fixes at 1 makes its coordinate the constant 0, which the encoder
    # gives an unread one (`requires gridDim.x == 1;` costs the solver nothing)
    return tuple(c for c in ALL_COORDS if c in seen and (c == THREAD_X or kernel.launch.size(c) != 1))


def atomic_scopes(kernel: core.Kernel) -> set[str]:
    """Where the kernel's atomics update memory: "shared" (`__shared__`, one block) and/or
    "global". Threads then observe each other without a race (an `atomicAdd` by every thread
    counts them all), so an unread coordinate cannot be left out of the model (size 1): in
    the block for any atomic, in the grid for global ones; it is kept, with a symbolic size."""
    scopes: set[str] = set()
    for s in core.statements(kernel.body):
        if isinstance(s, core.Opaque) and s.atomic is not None:
            decl = kernel.decl(s.atomic.target)
            scopes.add("shared" if decl.role is core.VarRole.SHARED_ARRAY else "global")
    return scopes


def is_multi_block(live: tuple[Coord, ...]) -> bool:
    return any(c.block for c in live)


def own_cell(live: tuple[Coord, ...]) -> tuple[Term, ...] | None:
    """The index tuple under which every thread of the model has a cell of its own: `[tid]`,
    or `[blockIdx.x]..[tid]` for per-block shared memory; None with several thread axes."""
    if any(not c.block for c in live if c != THREAD_X):
        return None
    return (*(c.index_term() for c in live if c.block), ThreadId())


# -- per-block shared memory -------------------------------------------------------------


def per_block_shared(kernel: core.Kernel, blocks: list[Coord] | None = None) -> core.Kernel:
    """Give each `__shared__` variable one leading index per live block coordinate (or per
    coordinate of `blocks`: those a kernel already so indexed is given anew).

    Identity for kernels with one (live) block, so their VCs are unchanged."""
    if blocks is None:
        blocks = [c for c in live_coords(kernel) if c.block]
    names = {d.name for d in kernel.decls if d.role is core.VarRole.SHARED_ARRAY}
    if not blocks or not names:
        return kernel
    prefix = tuple(c.index_term() for c in blocks)
    rw = _SharedRewriter(names, prefix)
    decls = tuple(replace(d, dim=d.dim + len(prefix)) if d.name in names else d for d in kernel.decls)
    return replace(
        kernel,
        decls=decls,
        requires=tuple(rw.formula(f) for f in kernel.requires),
        ensures=tuple(rw.formula(f) for f in kernel.ensures),
        body=rw.stmt(kernel.body),
    )


@dataclass(frozen=True)
class _SharedRewriter:
    names: set[str]
    prefix: tuple[Term, ...]

    def term(self, t: Term) -> Term:
        if isinstance(t, Var):
            indices = tuple(self.term(i) for i in t.indices)
            if t.name in self.names:
                return Var(t.name, (*self.prefix, *indices), t.span)
            return Var(t.name, indices, t.span) if indices != t.indices else t
        return map_children(t, self.term)

    def formula(self, f: core.Formula) -> core.Formula:
        return core.Formula(self.term(f.term), f.span)

    def stmt(self, s: core.Stmt) -> core.Stmt:
        if isinstance(s, core.Assign):
            indices = tuple(self.term(i) for i in s.indices)
            if s.target in self.names:
                indices = (*self.prefix, *indices)
            return replace(s, indices=indices, value=self.term(s.value))
        if isinstance(s, core.Seq):
            return replace(s, stmts=tuple(self.stmt(x) for x in s.stmts))
        if isinstance(s, core.If):
            return replace(s, cond=self.term(s.cond), then=self.stmt(s.then), orelse=self.stmt(s.orelse))
        if isinstance(s, core.While):
            return replace(
                s,
                cond=self.term(s.cond),
                body=self.stmt(s.body),
                invariants=tuple(self.formula(i) for i in s.invariants),
            )
        if isinstance(s, core.Assert | core.Assume):
            return replace(s, formula=self.formula(s.formula))
        if isinstance(s, core.Opaque) and s.atomic is not None:
            a = s.atomic
            indices = tuple(self.term(i) for i in a.indices)
            if a.target in self.names:
                indices = (*self.prefix, *indices)
            operands = tuple(self.term(o) for o in a.operands)
            return replace(s, atomic=replace(a, indices=indices, operands=operands))
        if isinstance(s, core.Opaque):
            return replace(s, body=self.stmt(s.body))
        return s


def geometry(kernel: core.Kernel, launch: Launch, draw: Callable[[Coord], int] | None = None) -> Geometry:
    """A concrete launch for the interpreters: the kernel's and `launch`'s fixed sizes, the
    others drawn by `draw` (random testing) or 1 where the kernel cannot observe them.

    Raises ConfigError naming the flag when a size the kernel reads is left open."""
    fixed = with_contract(kernel, launch)
    live = live_coords(kernel)
    sizes: list[int] = []
    missing: list[str] = []
    for c in ALL_COORDS:
        size = fixed.size(c) if c in live else 1  # the model's size of an unread coordinate
        if size is None:
            if draw is None:
                missing.append(c.size_term_name)
                size = 1
            else:
                size = draw(c)
        sizes.append(size)
    if missing:
        raise ConfigError(
            f"kernel {kernel.name} reads {', '.join(missing)}, which neither its 'requires' nor the "
            "command line fixes: give --threads N / --blockDim=[x,y,z] / --gridDim=[x,y,z]"
        )
    return Geometry(live, tuple(sizes))


def ignored_sizes(kernel: core.Kernel, launch: Launch) -> list[str]:
    """Sizes above 1 that `launch` gives coordinates the kernel never reads (the model keeps
    size 1 there: such a verdict is about one block / one row)."""
    live = live_coords(kernel)
    return [
        f"{c.size_term_name} = {launch.size(c)}"
        for c in ALL_COORDS
        if c not in live and (launch.size(c) or 1) > 1
    ]
