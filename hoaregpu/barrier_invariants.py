"""`barrier invariant` clauses as a cut (run by lowering): each clause is proved at the
barrier (and assumed), then the memory the clauses read (outside `\\old`) is forgotten and
they are assumed of it, so what follows knows of those arrays only what the clauses say and
its VCs no longer carry their history (GPUVerify's barrier invariants, Chong et al. 2013,
with no instantiation: our VCs keep every thread). `vc.wp.vc_assume` gives the forgotten
variables fresh versions (those the kernel writes)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from . import core
from .errors import Span
from .term_walk import children, conjoin
from .terms import Old, Term, Var


def barrier_cut(
    clauses: list[core.Formula], span: Span, memory: Callable[[str], bool], ended: Iterable[str]
) -> core.Stmt:
    """The checks and the cut of one barrier's clauses. `memory(name)`: the name is memory
    (not local to a thread); `ended`: the locals whose C scope has ended here (dead: C reads
    them nowhere after), forgotten too, else they would tie later VCs to earlier rounds
    through their frames (`x' = ite(active, v, x)`)."""
    checks = [core.Assert(c, c.span, core.CheckKind.BARRIER_INVARIANT) for c in clauses]
    read = {n for c in clauses for n in memory_read(c.term, memory)}
    whole = core.Formula(conjoin([c.term for c in clauses]), clauses[0].span)
    return core.Seq((*checks, core.Assume(whole, span, forget=tuple(sorted(read.union(ended))))))


def memory_read(term: Term, memory: Callable[[str], bool]) -> set[str]:
    """The memory `term` reads in the current state: not under `\\old`."""
    out: set[str] = set()
    stack = [term]
    while stack:
        t = stack.pop()
        if isinstance(t, Old):
            continue
        if isinstance(t, Var) and memory(t.name):
            out.add(t.name)
        stack.extend(children(t))
    return out
