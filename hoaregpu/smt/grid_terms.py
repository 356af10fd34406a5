"""The grid in SMT terms (hoaregpu.grid): the sizes of the live coordinates (literals where
the launch fixes them), and thread numbers to coordinates and back (mixed radix over the
live coordinates). A part of `encode.Encoder`, which sets the attributes declared here."""

from __future__ import annotations

from collections.abc import Mapping

from pysmt.fnode import FNode
from pysmt.formula import FormulaManager
from pysmt.typing import INT

from .. import core
from ..errors import Span, SpecError
from ..launch import THREAD_X, Coord, Launch
from ..terms import builtin_name


class GridTerms:
    kernel: core.Kernel
    mgr: FormulaManager
    launch: Launch
    live: tuple[Coord, ...]
    sizes: dict[Coord, FNode]
    nthreads: FNode
    multi_block: bool

    def _size_symbol(self, c: Coord) -> FNode:
        if c not in self.live:
            return self.mgr.Int(1)  # an unread coordinate (hoaregpu.grid)
        fixed = self.launch.size(c)
        if fixed is not None:
            return self.mgr.Int(fixed)
        # `ntid` keeps the paper's name; `.` cannot occur in a C name, so these never clash
        name = "ntid" if c == THREAD_X else builtin_name(c.size_term())
        return self.mgr.Symbol(name, INT)

    def size_facts(self) -> list[FNode]:
        """Every symbolic size the kernel reads is at least 1, and so is N."""
        m = self.mgr
        facts = [m.GE(self.sizes[c], m.Int(1)) for c in self.live if not self.sizes[c].is_constant()]
        if len(self.live) > 1:
            facts.append(m.GE(self.nthreads, m.Int(1)))
        return facts

    def coord_at(self, c: Coord, thread: FNode) -> FNode:
        """The coordinate `c` of thread number `thread`: mixed radix over the live coordinates."""
        if c not in self.live:
            return self.mgr.Int(0)  # a collapsed coordinate (hoaregpu.grid)
        k = self.live.index(c)
        below = [self.sizes[x] for x in self.live[:k]]
        v = thread
        if below:
            v = self.mgr.Div(v, below[0] if len(below) == 1 else self.mgr.Times(below))
        if k < len(self.live) - 1:
            v = self.mgr.Minus(v, self.mgr.Times(self.sizes[c], self.mgr.Div(v, self.sizes[c])))
        return v

    def compose(self, coords: Mapping[Coord, FNode]) -> FNode:
        """The thread number of the thread with these live coordinates."""
        m = self.mgr
        total: FNode | None = None
        for c in reversed(self.live):
            v = coords[c]
            total = v if total is None else m.Plus(v, m.Times(self.sizes[c], total))
        assert total is not None
        return total

    def _decompose(self, linear: FNode, block: bool, coords: dict[Coord, FNode]) -> FNode:
        """The live coordinates of the thread (`block`: the block) numbered `linear` (x fastest),
        into `coords`; returned, the condition that `linear` numbers one of them."""
        m = self.mgr
        rest, sizes = linear, []
        for axis in range(3):
            c = Coord(block, axis)
            size = self.sizes[c]
            sizes.append(size)
            if rest.is_int_constant() and (rest.constant_value() == 0 or size.is_int_constant()):
                # folded (0 div n = 0 for any size n >= 1): an unfolded `0 div gridDim.y` made
                # `e @ (0, 0)` nonlinear on an open grid, which z3 does not simplify
                r = int(rest.constant_value())
                n = int(size.constant_value()) if size.is_int_constant() else 1
                here = m.Int(r if axis == 2 else r % n)
                rest = m.Int(r // n)
            else:
                here = rest if axis == 2 else m.Minus(rest, m.Times(size, m.Div(rest, size)))
                rest = m.Div(rest, size)
            if c in self.live:
                coords[c] = here
        return m.And(m.LE(m.Int(0), linear), m.LT(linear, m.Times(sizes)))

    def same_block_thread(
        self, linear: FNode, current: FNode | None, span: Span | None
    ) -> tuple[FNode, FNode | None]:
        """`e @ t`: thread `t` (linear id `x + y*bdx + z*bdx*bdy`) of the current thread's
        block, and the condition that `t` is a thread of a block (None: the paper's one-block
        reading, where `x @ t` outside the threads is just an unconstrained value)."""
        if len(self.live) == 1:
            return linear, None
        coords: dict[Coord, FNode] = {}
        inside = self._decompose(linear, False, coords)
        if self.multi_block:
            blocks = [c for c in self.live if c.block]
            if current is None and all(c in self.kernel.kept for c in blocks):
                # blocks the kernel cannot tell apart (the race kernel's, `races.with_blocks`):
                # a formula without a current thread speaks of any one block, say the first
                for c in blocks:
                    coords[c] = self.mgr.Int(0)
                return self.compose(coords), inside
            if current is None:
                raise SpecError(
                    "'e @ t' names thread t of the current thread's block; here there is no current thread",
                    span or self.kernel.span or Span("<kernel>", 1, 1),
                    hint="with several blocks, use '@' in a per-thread formula or quantify over threads",
                )
            for c in self.live:
                if c.block:
                    coords[c] = self.coord_at(c, current)
        return self.compose(coords), inside

    def grid_thread(self, block: FNode, linear: FNode) -> tuple[FNode, FNode | None]:
        """`e @ (b, t)` (hoaregpu.races): thread `t` of block `b`, both linear ids, and the
        condition that they name a thread of the grid."""
        coords: dict[Coord, FNode] = {}
        inside = [self._decompose(linear, False, coords), self._decompose(block, True, coords)]
        return self.compose(coords), self.mgr.And(inside)

    def same_block(self, i: FNode, j: FNode) -> FNode:
        blocks = [c for c in self.live if c.block]
        return self.mgr.And([self.mgr.Equals(self.coord_at(c, i), self.coord_at(c, j)) for c in blocks])
