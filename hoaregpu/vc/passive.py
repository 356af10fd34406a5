"""The state of forward VC generation (`vc.wp`): the current version of every variable
(kept by the `Encoder`), the current path of hypotheses, the obligations made so far, and
the work still to do (an explicit stack, so that no input's nesting is limited by Python's
recursion); and the frame of a havoc, shared by loops and calls (`vc.calls`)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping

from pysmt.environment import Environment
from pysmt.fnode import FNode
from pysmt.typing import INT

from .. import core
from ..errors import Span
from ..smt.approx import approximations
from ..smt.encode import Encoder, Mask
from ..smt.speed import substitute
from .goals import Hyp, Obligation
from .kinds import Origin

Task = Callable[[], None]


class VcGen:
    """The generator's state: the encoder (with the current version of each variable), the
    current path of hypotheses, the obligations so far, and the work still to do."""

    def __init__(self, enc: Encoder, default_span: Span) -> None:
        self.enc = enc
        self.default_span = default_span
        self.hyps: Hyp | None = None
        self.obligations: list[Obligation] = []
        self._count = 0
        self._todo: list[Task] = []

    @functools.cached_property
    def written(self) -> frozenset[str]:
        """The variables some statement of the kernel assigns."""
        assigned = (
            (s.target,) if isinstance(s, core.Assign) else s.havoc if isinstance(s, core.Opaque) else ()
            for s in core.statements(self.enc.kernel.body)
        )
        return frozenset(x for names in assigned for x in names)

    def span(self, s: Span | None) -> Span:
        return s if s is not None else self.default_span

    def assume(self, f: FNode) -> None:
        """Extend the path by the hypothesis f."""
        self._count += 1
        parent = self.hyps
        found = approximations(f)
        known = parent.approximations if parent is not None else frozenset()
        self.hyps = Hyp(f, parent, self._count, known | frozenset(found) if found else known)

    def prove(self, f: FNode, origin: Origin) -> None:
        """An obligation f under the current path."""
        self.obligations.append(Obligation(self.hyps, f, origin))

    def havoc(self, names: list[str]) -> dict[str, FNode]:
        """Fresh versions x' of `names` (not yet current: see `make_current`)."""
        return {x: self.enc.fresh_like(x) for x in names}

    def make_current(self, versions: dict[str, FNode]) -> None:
        for x, new in versions.items():
            self.enc.set_version(x, new)

    def later(self, *tasks: Task) -> None:
        """Run `tasks` in this order, before anything scheduled earlier."""
        self._todo.extend(reversed(tasks))

    def run(self, stmt: core.Stmt, mask: Mask, step: Callable[[core.Stmt, Mask, VcGen], None]) -> None:
        """Generate the VCs of `stmt` under `mask` from the current state, `step` being the
        rule dispatch (`wp.step`)."""
        self.later(lambda: step(stmt, mask, self))
        while self._todo:
            self._todo.pop()()


def frame(enc: Encoder, name: str, new: FNode, mask: Mask) -> FNode:
    """A loop under mask m runs its body only at threads of m (E-WHILETRUE, E-LASSIGN):
    the locals of every other thread keep their values."""
    d = enc.kernel.decl(name)
    if d.kind is not core.VarKind.LOCAL:
        return enc.mgr.TRUE()
    m = enc.mgr
    t = enc.fresh("t", INT)
    ns = [enc.fresh("n", INT) for _ in range(d.dim)]
    args = [t, *ns]
    same = m.Equals(m.Function(new, args), m.Function(enc.symbol(name), args))
    return m.ForAll(args, m.Implies(m.Not(enc.mask_at(mask, t)), same))


def rename(env: Environment, f: FNode, mapping: Mapping[FNode, FNode]) -> FNode:
    """φ[x'/x] for versions of program variables, which are function symbols (pySMT's
    substitute only replaces terms); bound variables are never renamed: they are fresh. A
    walk of `f` (`smt.speed.substitute`): use it on clauses, never on everything generated
    so far."""
    if not mapping or all(k == v for k, v in mapping.items()):
        return f
    return substitute(env, f, mapping)
