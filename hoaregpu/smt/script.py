"""One SMT-LIB text per kernel: each hypothesis printed once, each VC a short body after it.

A kernel's VCs share their hypotheses (`vc.goals.Hyp`: a path per VC, the paths forming a
tree). Printing each VC standalone re-prints its whole path: quadratic in the kernel
(300 sequential loops gave 44 MB). Here the kernel has one *prefix*, appended to as VCs
are printed, holding

- the header (`set-option`, `set-logic`), then every symbol's `declare-fun` at its first use;
- every hypothesis h_k once, as the path up to it: `(define-fun P_k () Bool (and P_j h_k))`,
  P_j its parent's path (a name, not a copy: the text stays linear however long the path);

and each VC is a *body*: `(assert P_k)`, `(assert (not obligation))`, `(check-sat)`, the
`get-value` of its queries. The VC's script is the prefix as it was when the VC was printed
(`end`: everything its path and symbols need, and the paths of VCs printed before) followed
by its body: a standalone script, solved in a process of its own as before (isolation,
timeouts, the result cache and model checks unchanged). Definitions a VC does not use are
macros nothing asserts: they change no answer.

The names `P_k` are `hg@pK`: `@` occurs in no program name nor in a fresh name
(`Encoder.fresh` appends `!N` to program-derived bases), so they never clash.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from pysmt.fnode import FNode
from pysmt.utils import quote

from ..vc.goals import Hyp, unwritten
from .smtlib import SMTLIB_LOGIC, declaration, term_writer

PATH_PREFIX = "hg@p"


@dataclass(frozen=True)
class VcText:
    """A VC's script: `prefix[:end] + body` (see `KernelScript.text`)."""

    end: int
    body: str


class KernelScript:
    """The shared text of one kernel's VCs, built as they are printed (in order)."""

    def __init__(self, rewrite: Callable[[FNode], FNode] = lambda f: f) -> None:
        self._rewrite = rewrite  # applied to each hypothesis once (`smt.expand`, memoized)
        self._parts: list[str] = [f"(set-option :produce-models true)\n(set-logic {SMTLIB_LOGIC})\n"]
        self._length = len(self._parts[0])
        self._declared: set[FNode] = set()
        self._written: set[int] = set()  # indices of the hypotheses whose path is defined
        self._text = term_writer()
        self._query_text: dict[FNode, str] = {}  # VCs ask for many of the same terms
        # a loop's invariant is a hypothesis twice (its body's path and its exit's): printed once
        self._hyp_text: dict[FNode, str] = {}
        self._joined: str | None = None

    def _emit(self, line: str) -> None:
        self._parts.append(line)
        self._length += len(line)
        self._joined = None

    def _declare(self, formula: FNode) -> None:
        for s in sorted(formula.get_free_variables() - self._declared, key=lambda s: s.symbol_name()):
            self._declared.add(s)
            self._emit(declaration(s) + "\n")

    def path_name(self, hyps: Hyp | None) -> str:
        """The name of the path ending in `hyps` (defining it and its unwritten ancestors)."""
        for h in unwritten(hyps, self._written):
            body = self._hyp_text.get(h.formula)
            if body is None:
                f = self._rewrite(h.formula)
                self._declare(f)
                body = self._hyp_text[h.formula] = self._text(f)
            if h.parent is not None:
                parent = quote(PATH_PREFIX + str(h.parent.index))
                # a closed VC's own last hypothesis, the aggregates' axioms (`Hyp.defines`),
                # comes first: z3 is sensitive to the order (the tiled multiplication's
                # postcondition took 2.8 s with the axioms first, 6.9 s after the path)
                body = f"(and {body} {parent})" if h.defines else f"(and {parent} {body})"
            self._emit(f"(define-fun {quote(PATH_PREFIX + str(h.index))} () Bool {body})\n")
            self._written.add(h.index)
        return quote(PATH_PREFIX + str(hyps.index)) if hyps is not None else "true"

    def vc(self, hyps: Hyp | None, obligation: FNode, queries: Sequence[FNode] = ()) -> VcText:
        """`hyps → obligation` as a script body: the path asserted, the obligation negated."""
        path = self.path_name(hyps)
        self._declare(obligation)
        lines = [f"(assert {path})", f"(assert (not {self._text(obligation)}))", "(check-sat)"]
        if queries:
            lines.append("(get-value (" + " ".join(self._query(q) for q in queries) + "))")
        return VcText(self._length, "\n".join(lines) + "\n")

    def _query(self, q: FNode) -> str:
        text = self._query_text.get(q)
        if text is None:
            self._declare(q)
            text = self._query_text[q] = self._text(q)
        return text

    def text(self) -> str:
        """The prefix so far (every VC's `end` is an offset into it)."""
        if self._joined is None:
            self._joined = "".join(self._parts)
            self._parts = [self._joined]
        return self._joined
