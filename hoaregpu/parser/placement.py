"""Where annotation clauses may stand, and how they attach to what follows them.

The grammar returns annotation comments as `Annot` items among statements (in a block or
before a sub-statement) and among kernels (at the top level). Here `loop invariant`
clauses attach to the next `while`/`for`, `assert`/`assume` become statements,
`barrier invariant` clauses become statements right after the next barrier, and
`requires`/`ensures` form the contract of the next kernel; any other placement is a
SpecError that says where the clause may appear.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ..errors import Span, SpecError
from ..syntax import AnnotStmt, Block, Clause, ClauseKind, ForStmt, KernelDef, Stmt, SyncStmt, WhileStmt


@dataclass(frozen=True)
class Annot:
    """One annotation comment: its clauses in order."""

    clauses: tuple[Clause, ...]
    span: Span


_WHERE = {
    ClauseKind.REQUIRES: "in the contract annotation right before a '__global__' kernel",
    ClauseKind.ENSURES: "in the contract annotation right before a '__global__' kernel",
    ClauseKind.LOOP_INVARIANT: "in an annotation right before a 'while' or 'for' loop",
    ClauseKind.ASSERT: "as a statement inside a kernel body",
    ClauseKind.ASSUME: "as a statement inside a kernel body",
    ClauseKind.BARRIER_INVARIANT: "in an annotation right before a barrier ('__syncthreads();')",
}


def misplaced(clause: Clause) -> SpecError:
    return SpecError(f"'{clause.kind.value}' may only appear {_WHERE[clause.kind]}", clause.span)


def resolve(items: list[Any]) -> list[Stmt]:
    """Statements and annotation comments of a block, in order, to statements."""
    out: list[Stmt] = []
    invariants: list[Clause] = []
    at_barrier: list[Clause] = []  # `barrier invariant`s: statements after the barrier they precede
    for item in items:
        if isinstance(item, Annot):
            for clause in item.clauses:
                if clause.kind is ClauseKind.LOOP_INVARIANT:
                    invariants.append(clause)
                elif clause.kind is ClauseKind.BARRIER_INVARIANT:
                    at_barrier.append(clause)
                elif clause.kind in (ClauseKind.ASSERT, ClauseKind.ASSUME):
                    out.append(AnnotStmt(clause, clause.span))
                else:
                    raise misplaced(clause)
            continue
        if invariants:
            if not isinstance(item, (WhileStmt, ForStmt)):
                raise misplaced(invariants[0])
            item = replace(item, invariants=(*invariants, *item.invariants))
            invariants = []
        out.append(item)
        if at_barrier:
            if not isinstance(item, SyncStmt):
                raise misplaced(at_barrier[0])
            out.append(AnnotStmt(at_barrier[0], at_barrier[0].span, together=tuple(at_barrier[1:])))
            at_barrier = []
    if invariants or at_barrier:
        raise misplaced((invariants or at_barrier)[0])
    return out


def block(items: list[Any], span: Span) -> Block:
    return Block(tuple(resolve(items)), span)


def single(items: list[Any], span: Span) -> Stmt:
    """The body of an `if`/`else`/`while`/`for`: annotations and the one statement they precede."""
    stmts = resolve(items)
    if len(stmts) == 1:
        return stmts[0]
    return Block(tuple(stmts), span)


def top_level(items: list[Any]) -> list[KernelDef]:
    kernels: list[KernelDef] = []
    contract: list[Clause] = []
    for item in items:
        if isinstance(item, Annot):
            for clause in item.clauses:
                if clause.kind not in (ClauseKind.REQUIRES, ClauseKind.ENSURES):
                    raise misplaced(clause)
                contract.append(clause)
            continue
        kernel: KernelDef = item
        requires = tuple(c for c in contract if c.kind is ClauseKind.REQUIRES)
        ensures = tuple(c for c in contract if c.kind is ClauseKind.ENSURES)
        # after the comment contract, the kernel's own (GPUVerify's `__requires(e);` calls)
        requires, ensures = (*requires, *kernel.requires), (*ensures, *kernel.ensures)
        kernels.append(replace(kernel, requires=requires, ensures=ensures))
        contract = []
    if contract:
        raise misplaced(contract[0])
    for i, k in enumerate(kernels):
        for other in kernels[:i]:
            if other.name == k.name:
                raise SpecError(
                    f"a kernel named '{k.name}' is already defined (line {other.span.line})", k.span
                )
    return kernels
