"""Derivations of kernels on a fixed launch of several thread or block coordinates: the
threads of the whole grid are the paper's one `tid` range (proof/kernel.py translates the
kernel's coordinates through `FlatLaunch`)."""

from __future__ import annotations

from dataclasses import dataclass

from .. import core
from ..errors import Span, UnsupportedError
from ..grid import is_multi_block, live_coords
from ..launch import ALL_COORDS, THREAD_X, Coord
from ..terms import BinOp, BlockCount, BlockId, Term, ThreadCount, ThreadId, builtin_name
from .formula import Bin, F, Ntid, Num, Tid


@dataclass(frozen=True)
class FlatLaunch:
    """A fixed launch of several thread or block coordinates as the derivations see it: the
    paper's single thread index `tid` over all the threads of the grid, numbered as every
    stage numbers them (mixed radix over the live coordinates, `hoaregpu.grid`), each
    coordinate a function of it, each size a number. Lockstep over the whole grid is one
    schedule of independent blocks (hoaregpu.grid's module doc), and H-SYNC's mask of all
    threads is stricter than a block barrier's; `__shared__` memory already has its
    per-block index (lowering)."""

    index: dict[Coord, F]
    size: dict[Coord, int]
    threads: int
    multi_block: bool

    @staticmethod
    def of(kernel: core.Kernel) -> FlatLaunch | None:
        """None for one block along x (the derivations' own `tid` and `ntid`); an
        UnsupportedError when a size of a live coordinate is left open."""
        live = live_coords(kernel)
        if live == (THREAD_X,):
            return None
        open_ = [c.size_term_name for c in live if kernel.launch.size(c) is None]
        if open_:
            raise UnsupportedError(
                f"a launch with {', '.join(c.name for c in live)} whose {', '.join(open_)} is not fixed",
                kernel.span or Span("<kernel>", 1, 1),
                "derivations (prove/check) cover one block along x, or a launch whose every size the "
                "contract fixes (`requires blockDim.y == 2 && gridDim.x == 2;`); `hoaregpu verify` "
                "handles symbolic grids",
            )
        index: dict[Coord, F] = {}
        size = {c: (kernel.launch.size(c) or 1) if c in live else 1 for c in ALL_COORDS}
        stride = 1
        for k, c in enumerate(live):
            q: F = Tid() if stride == 1 else Bin(BinOp.DIV, Tid(), Num(stride))
            index[c] = q if k == len(live) - 1 else Bin(BinOp.MOD, q, Num(size[c]))
            stride *= size[c]
        return FlatLaunch(index, size, stride, is_multi_block(live))


def grid_term(t: Term, flat: FlatLaunch | None) -> F:
    """A thread coordinate or size (`threadIdx.y`, `gridDim.x`, ...)."""
    assert isinstance(t, ThreadId | ThreadCount | BlockId | BlockCount)
    c = Coord(isinstance(t, BlockId | BlockCount), t.axis)
    if flat is None:
        if c == THREAD_X:
            return Tid() if isinstance(t, ThreadId) else Ntid()
        raise UnsupportedError(
            f"'{builtin_name(t)}'",
            t.span or Span("<kernel>", 1, 1),
            "derivations (prove/check) cover one block along x, or a launch whose every size the "
            "contract fixes; use `hoaregpu verify` for symbolic grids",
        )
    if isinstance(t, ThreadCount | BlockCount):
        return Num(flat.size[c])
    return flat.index.get(c, Num(0))  # a coordinate the model does not have is 0


def per_block(t: Term, flat: FlatLaunch | None, what: str) -> None:
    """`e @ t` and `\\all`/`\\none` speak of the current thread's block: with several blocks
    that is not the derivations' `tid` range."""
    if flat is not None and flat.multi_block:
        raise UnsupportedError(
            f"{what} in a kernel of several blocks, in a proof",
            t.span or Span("<kernel>", 1, 1),
            "it speaks of the thread's own block, which derivations over the whole grid do not "
            "have; `hoaregpu verify` handles it",
        )
