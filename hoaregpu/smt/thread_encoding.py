"""How a VC's thread quantifiers reach the solver when the thread count K is fixed.

Two encodings, equivalent to each other and to the VC (so neither can turn a refutation
into a proof):

- `EXPANDED`: each thread quantifier `forall i. 0 <= i < K -> b(i)` becomes its K instances
  (`smt.expand`), a finite conjunction (a disjunction for `exists`). Solvers decide
  quantifier-free formulas far better and find counterexamples they miss otherwise (a
  barrier-divergence refutation in 0.6 s expanded, a timeout kept).
- `SYMBOLIC`: the quantifiers stay, over the literal range `0 <= i < K`. The instances are
  facts about the threads 0..K-1 only: a goal about a thread named by a term (the `tid` a
  goal is made concrete with, the `j % K` owning cell `j` in a grid-stride loop) needs a
  case split into K cases before they apply, which neither z3 nor cvc5 makes in 10 s from
  16 threads on (`vector_add_symbolic.cu`); kept, the quantifier is instantiated with that
  very term (`i := tid`, `i := j % K`) and the VC proves in 50 ms.

Neither is better on every VC (bench/results/thread_counts.md, and `specs/` measured per VC),
so for 2..MAX_EXPANSION threads `choose` gives both, and where the expansion multiplies
quantifiers (`ThreadEncoder.scripts`, `RACE_RATIO`) the solver races them (`SolveTask.alternatives`,
`solvers.race`); one thread: the expansion alone (one instance);
above MAX_EXPANSION (or a symbolic count) the quantifiers alone, since K instances of every
quantifier make the VC K times larger.
(A third encoding, both forms of each hypothesis side by side, was measured and dropped:
the instances slowed the solver down as much as with the expansion alone, 6 s at 16
threads and a timeout at 64.)
"""

from __future__ import annotations

import enum
from collections.abc import Sequence

from pysmt.environment import Environment
from pysmt.fnode import FNode

from .expand import MAX_EXPANSION, ExpandThreadQuantifiers
from .smtlib import script_text

RACE_RATIO = 1.25
"""The kept quantifiers race the expansion when it has at least this many times as many
quantifiers (`ThreadEncoder.scripts`)."""


class ThreadEncoding(enum.Enum):
    EXPANDED = "expanded"
    SYMBOLIC = "symbolic"


def choose(threads: int | None) -> tuple[ThreadEncoding, ...]:
    """The encodings for a kernel run by `threads` threads (None: a symbolic count), the
    first one the primary (the script shown by `--dump-smt` and replayed)."""
    if threads is None or threads > MAX_EXPANSION:
        return (ThreadEncoding.SYMBOLIC,)
    if threads == 1:
        return (ThreadEncoding.EXPANDED,)
    return (ThreadEncoding.EXPANDED, ThreadEncoding.SYMBOLIC)


class ThreadEncoder:
    """Encodes the VCs of one kernel (in its pySMT environment); the expansion is memoised
    across them, as they share subformulas."""

    def __init__(self, env: Environment) -> None:
        self.expand = ExpandThreadQuantifiers(env)
        self.mgr = env.formula_manager

    def encode(self, formula: FNode, encoding: ThreadEncoding) -> FNode:
        """`formula` (a VC) with its thread quantifiers in `encoding`."""
        if encoding is ThreadEncoding.SYMBOLIC:
            return formula
        return self.expand.walk(formula)

    def scripts(
        self, formula: FNode, queries: Sequence[FNode], encodings: Sequence[ThreadEncoding]
    ) -> tuple[str, tuple[str, ...], tuple[str, ...]]:
        """The SMT-LIB script of the VC `formula` in the first encoding, the scripts of the
        others worth racing against it, and the names of the encodings of both (empty when
        there is one script).

        The kept quantifiers are raced against the expansion only where the expansion has
        `RACE_RATIO` times as many quantifiers for the solver to instantiate: a thread
        quantifier whose body holds a quantifier (a per-thread invariant `forall j. ...
        j % K == tid ...`) becomes K quantified facts instead of ground ones. Measured
        (bench/thread_counts.py, `specs/`): the grid-stride loop at 16 threads (19
        quantifiers expanded, 8 kept) times out expanded and proves in 50 ms kept; at 8
        threads (11 against 8) expanded takes 2-6 s, a timeout on a loaded machine, raced
        under 1 s. The closest VCs of `specs/` below the ratio (24 against 23, 8 threads)
        were refuted by cvc5 in 9 s expanded alone and in 16 s raced, the race taking CPU
        the expansion needed on a loaded machine. Of `specs/`, only the two VCs of
        `vector_add_fixed4_exists.cu` that no encoding decides are raced. A VC without
        thread quantifiers has one script either way."""
        alternatives, names = self.race_alternatives(formula, queries, encodings)
        return script_text(self.mgr.Not(self.encode(formula, encodings[0])), queries), alternatives, names

    def race_alternatives(
        self, formula: FNode, queries: Sequence[FNode], encodings: Sequence[ThreadEncoding]
    ) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """What `scripts` gives beside the first script, without printing that one (the
        driver prints it in the kernel's shared text): the quantifiers are counted on the
        formulas, as the printer writes them (a tree: every occurrence)."""
        first = self.encode(formula, encodings[0])
        kept: list[tuple[ThreadEncoding, FNode]] = []
        for e in encodings[1:]:
            g = self.encode(formula, e)
            if g is first or any(g is other for _, other in kept):
                continue  # the same formula, the same script
            expanded = encodings[0] is ThreadEncoding.EXPANDED
            if expanded and tree_quantifiers(first) < RACE_RATIO * tree_quantifiers(g):
                continue
            kept.append((e, g))
        if not kept:
            return (), ()
        alternatives = tuple(script_text(self.mgr.Not(g), queries) for _, g in kept)
        return alternatives, (encodings[0].value, *(e.value for e, _ in kept))


def tree_quantifiers(f: FNode) -> int:
    """The quantifiers of `f` counted as `quantifiers` counts them in its printed script
    (every occurrence), in time linear in the DAG."""
    counts: dict[FNode, int] = {}
    stack: list[tuple[FNode, bool]] = [(f, False)]
    while stack:
        g, done = stack.pop()
        if g in counts:
            continue
        if not done:
            stack.append((g, True))
            stack.extend((a, False) for a in g.args() if a not in counts)
            continue
        counts[g] = int(g.is_quantifier()) + sum(counts[a] for a in g.args())
    return counts[f]


def quantifiers(script: str) -> int:
    """The quantifiers the solver reads in a script (printed as a tree: every occurrence)."""
    return script.count("(forall (") + script.count("(exists (")


__all__ = ["MAX_EXPANSION", "ThreadEncoder", "ThreadEncoding", "choose", "quantifiers"]
