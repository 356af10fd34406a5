"""The assertion language of proofs, and the paper's syntax of programs, as small ASTs.

Formulas are the terms of the paper's assertion language (§3.1) written in the spec
language's syntax, with three extensions (see proofs/README.md):

- primed variables `x'1`, `x'2`, ...: fresh variables with the kind (local/shared) and
  dimension of the program variable `x` (H-ASSIGN's x');
- `assign(x', m, x, [ē], e)`: Definition 3.5's predicate, m, ē and e evaluated per thread;
- `\\forall x'1; φ`: a quantifier over a function variable (H-ASSIGN's ∀x').

Aggregates (`\\sum(lo, hi, \\lambda int k; e)`, `\\product`, `\\numof`, `\\max`, `\\min`) are
terms of the spec language kept as they are: `k` is bound in the body only (docs/aggregates.md).

Mask variables (the z of H-IF / H-WHILE) are fresh local variables of dimension 0; a
mask is `T` or a conjunction of literals `z` / `!z` (Definition 3.1). `e = z` is written
`\\all(e == z)`, which by Definition 3.5 means ∀i ∈ T. e@i = z@i.

A formula is global: a local variable or `tid` may only be read inside `e @ t`,
`\\all(e)`, `\\none(e)` or `assign(...)`, where a thread is given.

This module is shared by the checker and the generator; it imports nothing of the VC
generator. Traversals, substitution and α-equivalence are in formula_ops.py.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TypeAlias

from ..terms import AggKind, BinOp, UnOp

# ---------------------------------------------------------------- formulas


@dataclass(frozen=True)
class Num:
    value: int  # never negative: `-1` is Un(NEG, Num(1))


@dataclass(frozen=True)
class Name:
    """A variable read `x[e1]..[en]`: program, primed, mask or bound integer variable."""

    name: str
    indices: tuple[F, ...] = ()


@dataclass(frozen=True)
class Tid:
    pass


@dataclass(frozen=True)
class Ntid:
    pass


@dataclass(frozen=True)
class Bin:
    op: BinOp
    left: F
    right: F


@dataclass(frozen=True)
class Un:
    op: UnOp
    operand: F


@dataclass(frozen=True)
class Cond:
    cond: F
    then: F
    orelse: F


@dataclass(frozen=True)
class Quant:
    """`\\forall int i, j; body` / `\\exists int ...` over integers."""

    forall: bool
    names: tuple[str, ...]
    body: F


@dataclass(frozen=True)
class At:
    term: F
    thread: F


@dataclass(frozen=True)
class Old:
    term: F


@dataclass(frozen=True)
class AllNone:
    """`\\all(e)` (all=True) / `\\none(e)`."""

    all: bool
    term: F


@dataclass(frozen=True)
class AssignP:
    """`assign(new, mask, target, [indices], value)` (Definition 3.5)."""

    new: str
    mask: F
    target: str
    indices: tuple[F, ...]
    value: F


@dataclass(frozen=True)
class FnForall:
    """`\\forall x'; body`: x' ranges over functions of x's arity."""

    name: str
    body: F


@dataclass(frozen=True)
class Agg:
    """`\\sum(low, high, \\lambda int name; body)` and the other `AggKind`s: `body` for `name`
    from `low` to `high` inclusive. `name` is an integer bound in `body` only, not in the bounds."""

    kind: AggKind
    low: F
    high: F
    name: str
    body: F


F: TypeAlias = (
    Num | Name | Tid | Ntid | Bin | Un | Cond | Quant | At | Old | AllNone | AssignP | FnForall | Agg
)

TRUE = Num(1)

# ---------------------------------------------------------------- programs (paper §2.1)


@dataclass(frozen=True)
class PAssign:
    target: str
    indices: tuple[F, ...]
    value: F


@dataclass(frozen=True)
class PSkip:
    pass


@dataclass(frozen=True)
class PSync:
    pass


@dataclass(frozen=True)
class PSeq:
    first: Prog
    second: Prog


@dataclass(frozen=True)
class PIf:
    cond: F
    then: Prog
    orelse: Prog


@dataclass(frozen=True)
class PWhile:
    cond: F
    body: Prog
    # The spec's loop invariants (per-thread clauses); not part of the program's identity.
    invariants: tuple[F, ...] = field(default=(), compare=False)


@dataclass(frozen=True)
class PAssert:
    formula: F


@dataclass(frozen=True)
class PAssume:
    formula: F


Prog: TypeAlias = PAssign | PSkip | PSync | PSeq | PIf | PWhile | PAssert | PAssume

# ---------------------------------------------------------------- masks

Mask: TypeAlias = tuple[tuple[str, bool], ...]
"""`T` is (); `z1 && !z2` is (("z1", True), ("z2", False))."""


def mask_expr(m: Mask) -> F:
    """The mask as an expression; T is `1` (Notation 3.4)."""
    out: F | None = None
    for z, pos in m:
        lit: F = Name(z) if pos else Un(UnOp.NOT, Name(z))
        out = lit if out is None else Bin(BinOp.AND, out, lit)
    return TRUE if out is None else out


def mask_and(m: Mask, e: F) -> F:
    """`m && e` (just `e` when m is T)."""
    return e if not m else Bin(BinOp.AND, mask_expr(m), e)


def show_mask(m: Mask) -> str:
    return " && ".join(z if pos else f"!{z}" for z, pos in m) if m else "T"


# ---------------------------------------------------------------- building formulas


def conj(parts: Iterable[F]) -> F:
    out: F | None = None
    for p in parts:
        out = p if out is None else Bin(BinOp.AND, out, p)
    return TRUE if out is None else out


def conjuncts(f: F) -> list[F]:
    if isinstance(f, Bin) and f.op is BinOp.AND:
        return [*conjuncts(f.left), *conjuncts(f.right)]
    return [f]


def and_(a: F, b: F) -> F:
    return Bin(BinOp.AND, a, b)


def implies(a: F, b: F) -> F:
    return Bin(BinOp.IMPLIES, a, b)


def mask_def(e: F, z: str) -> F:
    """`e = z` of H-IF / H-WHILE: ∀i ∈ T. e@i = z@i."""
    return AllNone(True, Bin(BinOp.EQ, e, Name(z)))


def sync_pre(m: Mask, post: F) -> F:
    """Strict H-SYNC (§7): (all(m) ∨ none(m)) ∧ φ."""
    me = mask_expr(m)
    return and_(Bin(BinOp.OR, AllNone(True, me), AllNone(False, me)), post)
