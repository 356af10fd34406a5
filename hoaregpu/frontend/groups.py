"""CUDA's cooperative groups (`<cooperative_groups.h>`, the stand-in in `include/`): the two
groups whose meaning is exact in our model, the thread block and the grid.

- `thread_block t = this_thread_block();`, `grid_group g = this_grid();`: the groups hold
  no data (a group is its type), so their local variables are dropped; an initialiser must
  be `this_thread_block()` / `this_grid()` or another group variable (a call of anything
  else could have effects).
- `t.sync()`, `sync(t)`, `synchronize(t)` (GPUVerify's spelling) on a thread block is
  `__syncthreads()`: the strict barrier of the block (H-SYNC per block).
- `g.sync()`, `sync(g)`, `synchronize(g)` on the grid is a barrier of the whole grid
  (`core.Sync(grid=True)`): every thread of every block reaches it or none does (strict
  rule of §7 with the grid as the thread set), and it orders memory across blocks.
- `thread_rank()` and `size()` (`num_threads()`) of both groups are their closed forms
  over the coordinates (`threadIdx.x + threadIdx.y * blockDim.x + ...`).

Anything else of the groups (a group as a parameter, argument or field, `is_valid()`, tiled
partitions, coalesced groups) is an UnsupportedError naming it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from ..syntax import Block, Decl, Stmt, SyncStmt
from ..terms import Binary, BinOp, BlockCount, BlockId, Term, ThreadCount, ThreadId
from . import clang
from .ckinds import strip
from .toplevel import TopLevel

GROUPS_PATH = os.path.join(clang.INCLUDE_DIR, "cooperative_groups.h")
GROUPS_HINT = (
    "cooperative groups: local 'thread_block' / 'grid_group' variables initialised by"
    " this_thread_block() / this_grid(), their sync(), thread_rank() and size()"
)
# the group types whose meaning is exact: True for the grid
_GROUPS = {"thread_block": False, "grid_group": True}


def _in_groups_header(cur: Any) -> bool:
    return cur is not None and cur.location.file is not None and cur.location.file.name == GROUPS_PATH


@dataclass
class Groups(TopLevel):
    def group_of(self, ty: Any) -> bool | None:
        """For a group type: whether it is the grid (True) or the block (False); None otherwise."""
        decl = ty.get_canonical().get_declaration()
        if not _in_groups_header(decl):
            return None
        return _GROUPS.get(decl.spelling)

    def check_record(self, ty: Any, cur: Any, written: str) -> None:
        if _in_groups_header(ty.get_canonical().get_declaration()):
            raise self.unsupported(f"cooperative group '{written}' used as a value", cur, GROUPS_HINT)
        super().check_record(ty, cur, written)

    # ------------------------------------------------------------ declarations

    def group_decl(self, cur: Any, stmt_span: Any) -> Decl | Block | None:
        """`grid_group g = this_grid();`: no variable (None when `cur` is no group variable)."""
        ty = cur.type.get_canonical()
        if ty.kind != self.ci.TypeKind.RECORD or not _in_groups_header(ty.get_declaration()):
            return None
        if self.group_of(ty) is None:
            raise self.unsupported(f"cooperative group type '{cur.type.spelling}'", cur, GROUPS_HINT)
        exprs = [ch for ch in cur.get_children() if ch.kind.is_expression()]
        if not exprs:
            what = f"cooperative group '{cur.spelling}' without an initialiser"
            raise self.unsupported(what, cur, GROUPS_HINT)
        if not self.is_group_value(exprs[-1]):
            raise self.unsupported(
                f"initialiser of cooperative group '{cur.spelling}'", exprs[-1], GROUPS_HINT
            )
        return Block((), stmt_span, scoped=False)

    def is_group_value(self, cur: Any) -> bool:
        """`this_grid()`, `this_thread_block()` or a group variable (no effects)."""
        K = self.K
        while True:
            cur = strip(cur, K)
            ref = cur.referenced
            if cur.kind == K.CALL_EXPR and ref is not None and ref.kind == K.CONSTRUCTOR:
                # the group's (implicit) copy constructor: look at what it copies
                args = [ch for ch in cur.get_children() if ch.kind.is_expression()]
                if len(args) != 1:
                    return False
                cur = args[0]
                continue
            break
        if cur.kind == K.CALL_EXPR:
            return cur.spelling in ("this_grid", "this_thread_block")
        if cur.kind == K.DECL_REF_EXPR:
            ref = cur.referenced
            return ref is not None and ref.kind == K.VAR_DECL and self.group_of(ref.type) is not None
        return False

    # ------------------------------------------------------------ calls

    def group_call(self, cur: Any) -> tuple[str, bool] | None:
        """A call of the groups' API: (member or function name, is it about the grid)."""
        fn = cur.referenced
        if not _in_groups_header(fn):
            return None
        K = self.K
        if fn.kind == K.CXX_METHOD:
            grid = _GROUPS.get(fn.semantic_parent.spelling)
            objects = [ch for ch in cur.get_children() if ch.kind == K.MEMBER_REF_EXPR]
            target = next(iter(objects[0].get_children()), None) if objects else None
        else:
            args = list(cur.get_arguments())
            target = args[0] if args else None
            grid = self.group_of(target.type) if target is not None else None
        if grid is None:
            return None
        if target is not None and not self.is_group_value(target):
            what = f"'{fn.spelling}' of this cooperative group expression"
            raise self.unsupported(what, target, GROUPS_HINT)
        return fn.spelling, grid

    def group_stmt(self, cur: Any) -> Stmt | None:
        """`g.sync();` and the like as a statement (None when `cur` is not the groups' API)."""
        call = self.group_call(cur)
        if call is None:
            if _in_groups_header(cur.referenced):
                raise self.unsupported(f"'{cur.spelling}' of the cooperative groups", cur, GROUPS_HINT)
            return None
        name, grid = call
        if name in ("sync", "synchronize"):
            return SyncStmt(self.span(cur), grid=grid)
        raise self.unsupported(f"'{name}()' as a statement of its own", cur, GROUPS_HINT)

    def call_value(self, cur: Any) -> Term:
        call = self.group_call(cur)
        if call is None:
            if _in_groups_header(cur.referenced):
                raise self.unsupported(f"'{cur.spelling}' of the cooperative groups", cur, GROUPS_HINT)
            return super().call_value(cur)
        name, grid = call
        span = self.span(cur)
        block_rank = _linear([ThreadId(span, a) for a in range(3)], [ThreadCount(span, a) for a in range(3)])
        block_size = _product([ThreadCount(span, a) for a in range(3)])
        if name == "thread_rank":
            if not grid:
                return block_rank
            block = _linear([BlockId(span, a) for a in range(3)], [BlockCount(span, a) for a in range(3)])
            return Binary(BinOp.ADD, Binary(BinOp.MUL, block, block_size, span), block_rank, span)
        if name in ("size", "num_threads"):
            if not grid:
                return block_size
            return Binary(BinOp.MUL, _product([BlockCount(span, a) for a in range(3)]), block_size, span)
        raise self.unsupported(f"'{name}()' of the cooperative groups", cur, GROUPS_HINT)


def _product(terms: list[Term]) -> Term:
    out = terms[0]
    for t in terms[1:]:
        out = Binary(BinOp.MUL, out, t)
    return out


def _linear(index: list[Term], size: list[Term]) -> Term:
    """`i.x + i.y * n.x + i.z * n.x * n.y`."""
    out = index[0]
    for axis in (1, 2):
        out = Binary(BinOp.ADD, out, Binary(BinOp.MUL, index[axis], _product(size[:axis]), None), None)
    return out
