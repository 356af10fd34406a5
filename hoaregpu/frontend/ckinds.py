"""libclang's operator and type kinds, and C's integer conversions (what the front end's
expression and statement translators share)."""

from __future__ import annotations

from typing import Any

from ..syntax import AssignOp
from ..terms import BinOp
from . import clang

# libclang's CXBinaryOperatorKind / CXUnaryOperatorKind (clang-c/Index.h, LLVM 17+)
BINARY = {
    3: BinOp.MUL,
    4: BinOp.DIV,
    5: BinOp.MOD,
    6: BinOp.ADD,
    7: BinOp.SUB,
    8: BinOp.SHL,
    9: BinOp.SHR,
    11: BinOp.LT,
    12: BinOp.GT,
    13: BinOp.LE,
    14: BinOp.GE,
    15: BinOp.EQ,
    16: BinOp.NE,
    17: BinOp.BAND,
    18: BinOp.BXOR,
    19: BinOp.BOR,
    20: BinOp.AND,
    21: BinOp.OR,
}
BINARY_UNSUPPORTED = {1: ".*", 2: "->*", 10: "<=>", 33: ","}
BITWISE = (BinOp.BAND, BinOp.BOR, BinOp.BXOR)
ASSIGN = 22
COMPOUND = {
    23: AssignOp.MUL,
    24: AssignOp.DIV,
    25: AssignOp.MOD,
    26: AssignOp.ADD,
    27: AssignOp.SUB,
    28: AssignOp.SHL,
    29: AssignOp.SHR,
    30: AssignOp.BAND,
    31: AssignOp.BXOR,
    32: AssignOp.BOR,
}
POST_INC, POST_DEC, PRE_INC, PRE_DEC = 1, 2, 3, 4
UNARY_UNSUPPORTED = {5: "address-of '&'", 6: "pointer dereference '*'"}
PLUS, MINUS, BNOT, LNOT = 7, 8, 9, 10

SIGNED = {"INT", "LONG", "LONGLONG", "SHORT", "CHAR_S", "SCHAR", "INT128"}
UNSIGNED = {"UINT", "ULONG", "ULONGLONG", "USHORT", "UCHAR", "CHAR_U", "UINT128"}

# the ranges of the integer types narrower than int (C stores a value there only if it fits)
NARROW = {
    "CHAR_S": (-128, 127),
    "SCHAR": (-128, 127),
    "CHAR_U": (0, 255),
    "UCHAR": (0, 255),
    "SHORT": (-32768, 32767),
    "USHORT": (0, 65535),
}


# C's integer conversion ranks (C11 6.3.1.1) and the usual arithmetic conversions (6.3.1.8),
# for the computation type of a compound assignment, which libclang does not expose.
RANK = {"BOOL": 0, "CHAR_S": 1, "SCHAR": 1, "CHAR_U": 1, "UCHAR": 1, "SHORT": 2, "USHORT": 2}
RANK |= {"INT": 3, "UINT": 3, "LONG": 4, "ULONG": 4, "LONGLONG": 5, "ULONGLONG": 5}
WIDTH = {3: 32, 4: 64, 5: 64}
TO_UNSIGNED = {"INT": "UINT", "LONG": "ULONG", "LONGLONG": "ULONGLONG"}


def promoted(kind: str) -> str:
    """Integer promotion: types of lower rank than int compute as int (their values fit)."""
    return "INT" if RANK.get(kind, 3) < 3 else kind


def computation_kind(a: str, b: str) -> str:
    """The type C computes `a op b` in (for integer kinds a and b)."""
    a, b = promoted(a), promoted(b)
    if a == b or a not in RANK or b not in RANK:
        return a
    if (a in UNSIGNED) == (b in UNSIGNED):
        return a if RANK[a] >= RANK[b] else b
    u, s = (a, b) if a in UNSIGNED else (b, a)
    if RANK[u] >= RANK[s]:
        return u
    if WIDTH[RANK[s]] > WIDTH[RANK[u]]:
        return s  # the signed type holds every value of the unsigned one
    return TO_UNSIGNED[s]


# builtin types are their own canonical type: no libclang call to ask for it
_BUILTIN = frozenset({*SIGNED, *UNSIGNED, "FLOAT", "DOUBLE", "BOOL", "VOID", "HALF", "LONGDOUBLE"})


def canonical_kind(ty: Any) -> str:
    """The name of the kind of the type's canonical type (typedefs seen through)."""
    name = str(ty.kind.name)
    return name if name in _BUILTIN else str(ty.get_canonical().kind.name)


def is_unsigned(cur: Any) -> bool:
    return canonical_kind(cur.type) in UNSIGNED


def width(cur: Any) -> int:
    """Bits of an integer type (what matters: 64 or less)."""
    return WIDTH.get(RANK.get(canonical_kind(cur.type), 3), 32)


def strip(cur: Any, K: Any) -> Any:
    while cur.kind in (K.UNEXPOSED_EXPR, K.PAREN_EXPR):
        children = list(cur.get_children())
        if len(children) != 1:
            break
        cur = children[0]
    return cur


def is_prelude(cur: Any) -> bool:
    if cur is None or cur.location.file is None:
        return False
    return bool(cur.location.file.name in clang.PRELUDES)
