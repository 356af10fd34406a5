"""The terms a VC asks the solver's model for (`Query`), and the hidden ones from which
`interp.replay_cex` rebuilds a counterexample's initial state (`ReplayPlan`).

Most replay queries are the same for every VC of a kernel (the shared arrays' cells at
literal indices, at the sizes and at the scalar parameters, each +-1): the plan builds
those terms once per kernel, and a VC only adds the cells at its own witnesses. Building
them per VC made pySMT hash-cons the same ~50 terms again for every VC (issue 14: a fifth
of VC preparation for kernels of many loops).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .. import core
from ..launch import ALL_COORDS

if TYPE_CHECKING:  # only the plan handles terms: a `Query` read back from a cache needs no pySMT
    from pysmt.fnode import FNode

    from ..smt.encode import Encoder

REPLAY_WINDOW = 24  # literal indices 0..min(this, max(N, 6) + 2) - 1 of every shared array
MAX_REPLAY_CELLS = 48  # per shared array


@dataclass(frozen=True)
class Query:
    """A term to evaluate in a counterexample, and how to show it."""

    # None in a result read back from the file cache (`filecache`): the kernel's formulas are
    # gone by then, and showing a counterexample needs only the rest
    term: FNode | None
    label: str  # "blockDim.x", "tid", "j", "n", or a variable name for a cell
    state: str | None = None  # "initially" / "at the failure" for variables; None for witnesses
    thread_arg: bool = False  # a local: the first argument is the thread
    arg_queries: tuple[int, ...] = ()  # positions (in the VC's queries) of the cell's arguments
    var: str = ""  # the core name of the variable read (cells and scalar parameters)
    replay: bool = False  # only for replaying the counterexample (`interp.replay_cex`): not shown

    @property
    def smt(self) -> FNode:
        """The term, while the kernel's VCs are being made."""
        assert self.term is not None, "a cached query has no term"
        return self.term


class ReplayPlan:
    """The replay queries of one kernel's VCs: every uniform scalar parameter, and the
    initial cells of every shared array at a small window of indices (literals from 0, the
    thread count, scalar parameters, witnesses and indices of the counterexample, each +-1).
    Locals get nothing (they start unset); other cells default to 0."""

    def __init__(self, enc: Encoder, kernel: core.Kernel, shared: tuple[core.VarDecl, ...]) -> None:
        m = self.mgr = enc.mgr
        self.zero = m.Int(0)
        # (name, display name, term, is a local read at thread 0) per scalar parameter, in order
        self.params: list[tuple[str, str, FNode, bool]] = []
        symbolic: list[FNode] = [enc.sizes[c] for c in ALL_COORDS if not enc.sizes[c].is_constant()]
        for name in kernel.params:
            d = kernel.decl(name)
            if d.dim == 0 and d.kind is core.VarKind.LOCAL:  # an assigned scalar parameter, uniform on entry
                term = m.Function(enc.symbol(name), [self.zero])
                self.params.append((name, d.display_name, term, True))
                symbolic.append(term)
            elif d.dim == 0:
                symbolic.append(enc.symbol(name))
        self.shared_scalars = [(d, enc.symbol(d.name)) for d in shared if d.dim == 0]
        self.arrays = [(d, enc.symbol(d.name)) for d in shared if d.dim > 0]
        self.symbolic = symbolic
        fixed = enc.ntid.constant_value() if enc.ntid.is_constant() else 0
        width = min(REPLAY_WINDOW, max(int(fixed), 6) + 2)
        self.indices: list[FNode] = [m.Int(i) for i in range(width)]
        for t in symbolic:
            self.indices += self._around(t)
        self._cells: dict[tuple[FNode, tuple[FNode, ...]], FNode] = {}
        self._shown: dict[tuple[object, ...], Query] = {}  # Query objects are immutable: shared

    def _around(self, t: FNode) -> list[FNode]:
        m = self.mgr
        return [t, m.Minus(t, m.Int(1)), m.Plus(t, m.Int(1))]

    def _query(self, *key: object) -> Query:
        q = self._shown.get(key)
        if q is None:
            term, label, state, thread_arg, arg_pos, var = key
            q = self._shown[key] = Query(term, label, state, thread_arg, arg_pos, var, replay=True)  # type: ignore[arg-type]
        return q

    def add_to(self, queries: list[Query], position: dict[FNode, int]) -> None:
        """Append this kernel's replay queries to a VC's `queries` (`position`: term → index)."""
        from pysmt.typing import INT

        def add(term: FNode, *rest: object) -> int:
            if term not in position:
                position[term] = len(queries)
                queries.append(self._query(term, *rest))
            return position[term]

        for name, display, term, _ in self.params:
            pos = add(self.zero, "", None, False, (), "")
            add(term, display, "initially", True, (pos,), name)
        for d, term in self.shared_scalars:
            add(term, d.display_name, "initially", False, (), d.name)
        extra = [
            q.smt
            for q in queries  # witnesses and indices the counterexample mentions
            if q.state is None and not q.smt.is_constant() and q.smt.get_type() is INT
        ]
        known = set(self.symbolic)
        indices = self.indices
        for t in extra:
            if t not in known:
                known.add(t)
                indices = [*indices, *self._around(t)]
        for d, sym in self.arrays:
            per_dim = indices if d.dim == 1 else indices[: max(2, int(MAX_REPLAY_CELLS ** (1 / d.dim)))]
            for key in itertools.islice(itertools.product(per_dim, repeat=d.dim), MAX_REPLAY_CELLS):
                arg_pos = tuple(add(a, "", None, False, (), "") for a in key)
                term = self._cells.get((sym, key))
                if term is None:
                    term = self._cells[(sym, key)] = self.mgr.Function(sym, list(key))
                add(term, d.display_name, "initially", False, arg_pos, d.name)
