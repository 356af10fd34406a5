"""Access facts: `\\written(a, i)`, `\\read(a, i)` (and `\\written(a)`, `\\read(a)`) in
loop invariants, asserts and `ensures` (docs/races.md, "Access facts").

They speak of this thread's ghost race logs (`hoaregpu.races`), so they mean something in
the race kernel only:

- there (`translated`) `\\written(a, i, j)` is `write_flag(a) > 0 && write_cell(a) == (i, j)`:
  the write log of `a` holds a plain write of the current barrier interval (since the last
  barrier whose fences order `a`'s memory) to that cell; `\\written(a)` is `write_flag(a) > 0`;
  `\\read` the same of the read log. An array without such a log (never written, or never
  read) has no such access: the fact is false. Atomic updates are in a log of their own and
  are not covered;
- every VC of a clause with an access fact is a VC of the race kernel (`spans`; proved
  with the race VCs, also under `--assume-race-free`), and the clause is a hypothesis there
  only where the VC generator makes it one after proving it (H-WHILE, an assert);
- the kernel's own VCs, the interpreters and derivations do not see them (`without`): the
  conjuncts of a clause that mention one are removed (a weaker loop invariant or assert: the
  VCs that are left are sound, the removed part is proved in the race kernel).

A log holds one access, chosen nondeterministically at each access, and a VC holds for
every choice. So a proved `\\written(a, k) ==> P(k)` (an access fact in a negative
position) says P of *every* cell written in the interval: for each such write there is a
choice recording it and none after it. A fact in a positive position (`\\written(a, 3)`)
holds only where every choice records that access: it is provable only where it follows
from other facts (`\\written(a) ==> \\written(a, 3)`: every write of the interval is to
a[3]). Whatever the position, the clause is proved of the instrumented kernel, whose
program variables behave as the kernel's, so it never makes a wrong claim verify.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from . import core
from .errors import Span, SpecError
from .term_walk import conjuncts, map_children, subterms
from .terms import Access, AccessKind, Binary, BinOp, IntLit, Old, Term, Var

Where = tuple[str, int, int]  # a clause's path, line, column (what a VC's origin names)


def accesses(t: Term) -> list[Access]:
    return [s for s in subterms(t) if isinstance(s, Access)]


def formulas(kernel: core.Kernel) -> list[core.Formula]:
    """Every annotation formula of the kernel (its contract, loop invariants, asserts, assumes)."""
    out = [*kernel.requires, *kernel.ensures]
    for s in core.statements(kernel.body):
        if isinstance(s, core.While):
            out += s.invariants
        elif isinstance(s, core.Assert | core.Assume):
            out.append(s.formula)
    return out


def spans(kernel: core.Kernel) -> frozenset[Where]:
    """Where the kernel's clauses with an access fact stand: their VCs are race VCs."""
    return frozenset((f.span.path, f.span.line, f.span.col) for f in formulas(kernel) if accesses(f.term))


def read_arrays(kernel: core.Kernel) -> set[str]:
    """The arrays a `\\read` fact names: their reads get a log even if no thread writes them."""
    return {
        a.target.name
        for f in formulas(kernel)
        for a in accesses(f.term)
        if a.kind is AccessKind.READ and isinstance(a.target, Var)
    }


def map_formulas(kernel: core.Kernel, f: Callable[[core.Formula], core.Formula | None]) -> core.Kernel:
    """The kernel with `f` applied to its `ensures`, loop invariants, asserts and assumes
    (None: the clause removed; a removed assert or assume is a skip)."""

    def some(fs: tuple[core.Formula, ...]) -> tuple[core.Formula, ...]:
        return tuple(g for g in (f(x) for x in fs) if g is not None)

    def stmt(s: core.Stmt) -> core.Stmt:
        if isinstance(s, core.Seq):
            return replace(s, stmts=tuple(stmt(x) for x in s.stmts))
        if isinstance(s, core.If):
            return replace(s, then=stmt(s.then), orelse=stmt(s.orelse))
        if isinstance(s, core.While):
            return replace(s, body=stmt(s.body), invariants=some(s.invariants))
        if isinstance(s, core.Assert | core.Assume):
            g = f(s.formula)
            return core.Skip(s.span) if g is None else replace(s, formula=g)
        return s

    return replace(kernel, ensures=some(kernel.ensures), body=stmt(kernel.body))


def has_facts(kernel: core.Kernel) -> bool:
    return any(accesses(f.term) for f in formulas(kernel))


def without(kernel: core.Kernel) -> core.Kernel:
    """The kernel without the conjuncts of its clauses that state access facts (module doc)."""
    if not has_facts(kernel):
        return kernel

    def plain(f: core.Formula) -> core.Formula | None:
        if not accesses(f.term):
            return f
        kept = [c for c in conjuncts(f.term) if not accesses(c)]
        if not kept:
            return None
        term = kept[0]
        for c in kept[1:]:
            term = Binary(BinOp.AND, term, c, term.span)
        return core.Formula(term, f.span)

    return map_formulas(kernel, plain)


def translated(kernel: core.Kernel, logs: Callable[[str], tuple[str, ...]]) -> core.Kernel:
    """The instrumented kernel with each access fact read as its race logs (module doc);
    `logs(a)`: the kinds of log array `a` has (`Instrumenter.kinds`, none if not logged)."""
    from .race_instrument import READ, WRITE, flag, offset

    def fact(acc: Access) -> Term:
        assert isinstance(acc.target, Var)  # lowering checks
        a = acc.target.name
        kind = WRITE if acc.kind is AccessKind.WRITTEN else READ
        if kind not in logs(a):
            return IntLit(0, acc.span)  # no such access anywhere in the kernel
        out: Term = Binary(BinOp.GE, Var(flag(a, kind)), IntLit(1), acc.span)
        if not acc.any_cell:
            for k, index in enumerate(acc.target.indices):
                same = Binary(BinOp.EQ, Var(offset(a, kind, k)), index, acc.span)
                out = Binary(BinOp.AND, out, same, acc.span)
        return out

    def term(t: Term) -> Term:
        return fact(t) if isinstance(t, Access) else map_children(t, term)

    def formula(f: core.Formula) -> core.Formula:
        return core.Formula(term(f.term), f.span) if accesses(f.term) else f

    return map_formulas(kernel, formula)


def check_placement(kernel: core.Kernel) -> None:
    """Access facts stand in loop invariants, asserts and a kernel's `ensures` only."""
    where: list[tuple[str, tuple[core.Formula, ...]]] = [("a 'requires'", kernel.requires)]
    where += [
        ("an 'assume'", (s.formula,)) for s in core.statements(kernel.body) if isinstance(s, core.Assume)
    ]
    if kernel.device:
        where = [("a device function", tuple(formulas(kernel)))]
    olds = [(o, f) for f in formulas(kernel) for o in subterms(f.term) if isinstance(o, Old)]
    where += [("'\\old'", (core.Formula(o.term, f.span),)) for o, f in olds]
    for what, fs in where:
        for f in fs:
            found = accesses(f.term)
            if found:
                raise SpecError(
                    f"access fact '{found[0].kind.value}' in {what}",
                    found[0].span or f.span or Span("<kernel>", 1, 1),
                    "access facts speak of a kernel's race logs: state them in loop invariants, "
                    "asserts or a kernel's 'ensures', where they are proved",
                )


_MEMORY_HINT = "only memory (pointer parameters, __shared__ and __device__ variables) can race"


def check_target(
    fact: Access, decl: core.VarDecl, memory_scalar: bool, span: Span, span_of: Callable[[Term], Span]
) -> None:
    """Raise SpecError unless `fact`'s array is memory (`memory_scalar`: a scalar parameter
    that stands for memory) and no index of it holds another fact."""
    what, target = fact.kind.value, fact.target
    assert isinstance(target, Var)
    if decl.kind is core.VarKind.LOCAL:
        raise SpecError(
            f"'{target.name}' is a thread's own variable: '{what}' speaks of memory accesses",
            span,
            _MEMORY_HINT,
        )
    if decl.role is core.VarRole.SCALAR_PARAM and not memory_scalar:
        raise SpecError(
            f"'{target.name}' is a scalar parameter: '{what}' speaks of memory accesses", span, _MEMORY_HINT
        )
    for index in target.indices:
        inner = next((s for s in subterms(index) if isinstance(s, Access)), None)
        if inner is not None:
            raise SpecError(
                f"access fact '{inner.kind.value}' in an index of '{what}'",
                span_of(inner),
                "an index is a number: state the facts side by side"
                f" ('{inner.kind.value}(a) && {what}(b, i)')",
            )
