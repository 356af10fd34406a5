"""The checks lowering adds where a program term is evaluated, so that mathematical integers
and index tuples agree with C: `unsigned-wrap` and `narrowing` (the front end's `Unsigned`
and `Fits` marks, `hoaregpu.unsigned`) and `index-bounds` (rows of multi-dimensional
arrays). A part of `lower._Lowerer`, which sets the attributes declared here."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from . import core, syntax, unsigned
from .errors import Span
from .term_walk import map_children
from .terms import Fits, IntLit, Term, Var


@dataclass
class VarInfo:
    decl: core.VarDecl
    type: syntax.BaseType
    extents: tuple[int | None, ...] = ()  # an array's extents where C fixes them


def extent(size: Term) -> int | None:
    """A declared extent C fixes (`int t[4]`), else None (`int a[]`, a pointer)."""
    return size.value if isinstance(size, IntLit) and size.value > 0 else None


class EvaluationChecks:
    path: str
    info: dict[str, VarInfo]

    def in_rows(self, name: str, indices: Sequence[Term]) -> tuple[Term, ...]:
        """The indices of an access to the array `name`, each but the first marked with the
        row it must stay in (`Fits(..., index=True)`, an `index-bounds` check where it is
        evaluated). C's arrays are row-major memory and ours map index tuples: `t[0][2]` of
        an `int t[2][2]` is C's `t[1][0]` but a cell of its own here; they agree in the rows."""
        extents = self.info[name].extents
        out = list(indices)
        for k in range(1, min(len(out), len(extents))):
            row = extents[k]
            if row is not None:
                out[k] = Fits(out[k], 0, row - 1, out[k].span, index=True)
        return tuple(out)

    def _rows_checked(self, t: Term) -> Term:
        """`in_rows` for every array access of a program term."""
        if isinstance(t, Var) and t.indices:
            return Var(t.name, self.in_rows(t.name, [self._rows_checked(i) for i in t.indices]), t.span)
        return map_children(t, self._rows_checked)

    def evaluated(self, *terms: Term) -> tuple[core.Stmt, list[Term]]:
        """Lowered program terms about to be evaluated: the `unsigned-wrap`, `narrowing` and
        `index-bounds` checks they need (to run first) and the terms without their marks
        (`hoaregpu.unsigned`)."""
        checks: list[core.Stmt] = []
        out: list[Term] = []
        for t in terms:
            plain, found = unsigned.split(self._rows_checked(t))
            out.append(plain)
            for ob, sp, kind in found:
                span = sp or Span(self.path, 1, 1)
                checks.append(core.Assert(core.Formula(ob, span), span, kind))
        if not checks:
            return core.Skip(), out
        return (checks[0] if len(checks) == 1 else core.Seq(tuple(checks))), out
