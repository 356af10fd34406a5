"""Launch sizes and thread coordinates (spec-language §5), shared by every stage.

`Launch` holds what is fixed of `blockDim` and `gridDim` (from `requires`, `--blockDim`,
`--gridDim`, `--threads`); `Coord` names one coordinate of a thread. How a kernel's
threads are numbered from their coordinates is `hoaregpu.grid`'s business.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from .errors import ConfigError
from .terms import AXES, BlockCount, BlockId, Builtin, ThreadCount, ThreadId

Dims = tuple[int | None, int | None, int | None]


@dataclass(frozen=True)
class Coord:
    """One coordinate of a thread: `threadIdx.<axis>` (block=False) or `blockIdx.<axis>`."""

    block: bool
    axis: int

    def index_term(self) -> Builtin:
        return BlockId(None, self.axis) if self.block else ThreadId(None, self.axis)

    def size_term(self) -> Builtin:
        return BlockCount(None, self.axis) if self.block else ThreadCount(None, self.axis)

    @property
    def name(self) -> str:
        return f"{'blockIdx' if self.block else 'threadIdx'}.{AXES[self.axis]}"

    @property
    def size_term_name(self) -> str:
        return f"{'gridDim' if self.block else 'blockDim'}.{AXES[self.axis]}"


ALL_COORDS = tuple(Coord(b, a) for b in (False, True) for a in range(3))
THREAD_X = Coord(False, 0)


@dataclass(frozen=True)
class Launch:
    """Fixed sizes of `blockDim.{x,y,z}` and `gridDim.{x,y,z}`; None is symbolic (>= 1)."""

    block: Dims = (None, None, None)
    grid: Dims = (None, None, None)

    @staticmethod
    def of_threads(threads: int | None) -> Launch:
        return Launch(block=(threads, None, None))

    def size(self, c: Coord) -> int | None:
        return (self.grid if c.block else self.block)[c.axis]

    @property
    def threads(self) -> int | None:
        return self.block[0]

    @property
    def is_default(self) -> bool:
        return self == Launch()

    def merged(self, other: Launch, conflict: Callable[[str, int, int], str]) -> Launch:
        """Both launches' fixed sizes. A size both fix differently is a ConfigError with the
        message `conflict(name, ours, theirs)`, e.g. `conflict("blockDim.x", 4, 8)`."""
        out: list[Dims] = []
        pairs = ((self.block, other.block, "blockDim"), (self.grid, other.grid, "gridDim"))
        for ours, other_dims, what in pairs:
            dims: list[int | None] = []
            for axis, (a, b) in enumerate(zip(ours, other_dims, strict=True)):
                if a is not None and b is not None and a != b:
                    raise ConfigError(conflict(f"{what}.{AXES[axis]}", a, b))
                dims.append(a if a is not None else b)
            out.append((dims[0], dims[1], dims[2]))
        return Launch(out[0], out[1])

    def describe(self) -> str:
        def dims(d: Dims) -> str:
            return "[" + ",".join("?" if v is None else str(v) for v in d) + "]"

        return f"blockDim={dims(self.block)} gridDim={dims(self.grid)}"


def parse_dims(text: str, flag: str) -> Dims:
    """GPUVerify's spelling: `64`, `[64]`, `[16,16]`, `16,16,1`; missing trailing sizes are 1;
    `*` leaves every size open (symbolic)."""
    body = text.strip()
    if body == "*":
        return (None, None, None)
    if body.startswith("[") and body.endswith("]"):
        body = body[1:-1]
    parts = [p.strip() for p in body.split(",")] if body.strip() else []
    if not 1 <= len(parts) <= 3 or not all(re.fullmatch(r"[0-9]+", p) for p in parts):
        raise ConfigError(
            f"{flag} expects 1 to 3 positive sizes such as 64, [16,16] or [8,8,4], not {text!r}"
        )
    sizes = [int(p) for p in parts] + [1] * (3 - len(parts))
    if any(s < 1 for s in sizes):
        raise ConfigError(f"{flag} sizes must be at least 1, not {text!r}")
    return (sizes[0], sizes[1], sizes[2])


def opencl_launch(local_size: str | None, num_groups: str | None, global_size: str | None) -> Launch:
    """OpenCL's launch flags (GPUVerify's spelling): `--local_size` is blockDim (work-items per
    work-group), `--num_groups` gridDim, `--global_size` their product (all work-items), which
    must be divisible by the local size in each dimension."""
    block = parse_dims(local_size, "--local_size") if local_size is not None else None
    grid = parse_dims(num_groups, "--num_groups") if num_groups is not None else None
    if global_size is not None:
        total = parse_dims(global_size, "--global_size")
        if block is None:
            raise ConfigError("--global_size needs --local_size (the work-group size) for the work-groups")
        groups: list[int] = []
        for axis, (t, b) in enumerate(zip(total, block, strict=True)):
            if t is None or b is None:  # `*`: the work-groups are left open
                groups.append(0)
                continue
            if t % b:
                raise ConfigError(
                    f"--global_size {t} is not a multiple of --local_size {b} in dimension {axis}:"
                    " every work-group has the same size"
                )
            groups.append(t // b)
        derived: Dims = (groups[0] or None, groups[1] or None, groups[2] or None)
        if grid is not None and grid != derived:
            raise ConfigError(
                f"--global_size / --local_size give {list(derived)} work-groups,"
                f" but --num_groups gives {list(grid)}"
            )
        grid = derived
    return Launch(block or (None, None, None), grid or (None, None, None))


@dataclass(frozen=True)
class Geometry:
    """A concrete launch as the interpreters see it: every size known, threads numbered in
    mixed radix over the live coordinates (`hoaregpu.grid`), as in the verifier's model."""

    live: tuple[Coord, ...]
    sizes: tuple[int, ...]  # one per coordinate of ALL_COORDS

    @staticmethod
    def one_block(threads: int) -> Geometry:
        return Geometry((THREAD_X,), (threads, 1, 1, 1, 1, 1))

    @property
    def threads(self) -> int:
        n = 1
        for c in self.live:
            n *= self.size(c)
        return n

    @property
    def multi_block(self) -> bool:
        return any(c.block for c in self.live)

    def size(self, c: Coord) -> int:
        return self.sizes[ALL_COORDS.index(c)]

    def coord(self, c: Coord, thread: int) -> int:
        if c not in self.live:
            return 0  # a collapsed coordinate
        for x in self.live[: self.live.index(c)]:
            thread //= self.size(x)
        return thread % self.size(c)

    def block_of(self, thread: int) -> tuple[int, ...]:
        return tuple(self.coord(c, thread) for c in self.live if c.block)

    def same_block_thread(self, linear: int, current: int | None, block: int | None = None) -> int | None:
        """`e @ t`: thread `t` (linear id in its block) of the current thread's block, or with
        `block` (`e @ (b, t)`) of the block numbered `block`; None when they name no thread."""
        if len(self.live) == 1 and block is None:
            return linear
        coords = self._split(linear, False)
        if coords is None:
            return None
        if block is not None:
            of_block = self._split(block, True)
            if of_block is None:
                return None
            coords.update(of_block)
        elif self.multi_block and current is not None:
            for c in self.live:
                if c.block:
                    coords[c] = self.coord(c, current)
        number = 0
        for c in reversed(self.live):
            number = coords.get(c, 0) + self.size(c) * number
        return number

    def _split(self, linear: int, block: bool) -> dict[Coord, int] | None:
        """The thread (`block`: block) coordinates of a linear id, x fastest; None out of range."""
        axes = [Coord(block, axis) for axis in range(3)]
        if not 0 <= linear < self.size(axes[0]) * self.size(axes[1]) * self.size(axes[2]):
            return None
        coords = {}
        for c in axes:
            coords[c] = linear % self.size(c)
            linear //= self.size(c)
        return coords

    def describe_thread(self, thread: int) -> str:
        """`5` for one block, one axis; else `5 (block (1,0,0), thread (1,0,0))`-like text."""
        if len(self.live) == 1:
            return str(thread)
        t = ",".join(str(self.coord(Coord(False, a), thread)) for a in range(3))
        if not self.multi_block:
            return f"{thread} (threadIdx ({t}))"
        b = ",".join(str(self.coord(Coord(True, a), thread)) for a in range(3))
        return f"{thread} (blockIdx ({b}), threadIdx ({t}))"

    def with_threads_x(self, n: int) -> Geometry:
        """The same launch with `blockDim.x = n` (shrinking a failing test)."""
        return Geometry(self.live, (n, *self.sizes[1:]))

    def launch(self) -> Launch:
        s = self.sizes
        return Launch((s[0], s[1], s[2]), (s[3], s[4], s[5]))

    def describe(self) -> str:
        return self.launch().describe() if len(self.live) > 1 else f"{self.threads} threads"
