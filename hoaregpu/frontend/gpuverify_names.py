"""The names of GPUVerify's intrinsics by role, and where a dialect formula stands (which
decides what an untranslatable one becomes: `gpuverify.py`, docs/gpuverify-dialect.md)."""

from __future__ import annotations

from enum import Enum

from ..terms import BinOp

# intrinsics that stand as statements, and those that are values inside a formula
CONTRACT = {"__requires", "__ensures", "__global_requires", "__global_ensures"}
STATEMENTS = CONTRACT | {
    "__invariant",
    "__global_invariant",
    "__assert",
    "__global_assert",
    "__assume",
    "__requires_fresh_array",
    "__barrier_invariant",
    "__access_permission",
}
# invariants of every loop of the function, written at the end of its body
FUNCTION_WIDE = {"__function_wide_invariant"}
# candidates, which GPUVerify's Houdini keeps only where they hold: hoaregpu drops them
CANDIDATES = {"__candidate_invariant", "__candidate_global_invariant", "__function_wide_candidate_invariant"}
STATEMENTS |= FUNCTION_WIDE | CANDIDATES
OTHER = {"__other_int", "__other_bool"}
OLD = {"__old_int", "__old_bool"}
RETURN = {"__return_val_int", "__return_val_bool"}
PAIR = {"__uniform_int": BinOp.EQ, "__uniform_bool": BinOp.EQ, "__distinct_int": BinOp.NE}
PAIR["__distinct_bool"] = BinOp.NE
# what GPUVerify records about memory accesses (race checking, issue 11) and pointers
MEMORY = {
    "__read",
    "__write",
    "__no_read",
    "__no_write",
    "__read_implies",
    "__write_implies",
    "__read_offset_bytes",
    "__write_offset_bytes",
    "__ptr_offset_bytes",
    "__ptr_base",
    "__return_val_ptr",
}
VALUES = OTHER | OLD | RETURN | set(PAIR) | MEMORY
VALUES |= {"__implies", "__enabled", "__all", "__exclusive", "__ite", "__same_group_"}
INTRINSICS = frozenset(STATEMENTS | VALUES)

LOOP_HEAD = {"__invariant", "__global_invariant", "__assert", "__global_assert"}
LOOP_HEAD |= {"__candidate_invariant", "__candidate_global_invariant"}
MEMORY_HINT = (
    "GPUVerify's pointer intrinsics have no counterpart: hoaregpu resolves pointers to arrays "
    "(its access facts __read/__write/... are read as '\\written'/'\\read': docs/races.md)"
)


class Position(Enum):
    """Where a dialect formula stands, which decides what an untranslatable one becomes."""

    REQUIRES = "__requires"  # a kernel's precondition: hypothesis
    ASSUME = "__assume"  # hypothesis
    INVARIANT = "loop invariant"  # proved and assumed; dropping one only weakens the proof
    ENSURES = "__ensures"  # a kernel's postcondition: obligation
    ASSERT = "__assert"  # obligation (also a device function's __requires/__ensures)

    @property
    def droppable(self) -> bool:
        return self in (Position.REQUIRES, Position.ASSUME, Position.INVARIANT)

    @property
    def hypothesis_only(self) -> bool:
        return self in (Position.REQUIRES, Position.ASSUME)
