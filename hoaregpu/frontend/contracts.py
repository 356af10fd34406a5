"""Device functions with a contract (spec-language §5; the paper's §7 extension).

A `__device__` function with `requires`/`ensures` before it (`\\result` names its value)
is verified once on its own, as a kernel of the same name whose parameters are the
function's and whose body ends with `\\result = e` for its final `return e;`; and every call
uses the contract instead of the body:

    f.x.1 = a; ...                      the arguments, in the caller (as for inlining)
    assert requires[x := f.x.1]         VC kind `call-precondition`, at the call
    { f's body, inlined }               core.Opaque: the interpreters run it, the
                                        verifier only havocs the locals it assigns
    assume ensures[x := f.x.1, \\result := f.result.2]

Why verifying f once, with every thread active and the scalar parameters uniform, covers
every call (per-thread arguments, any mask): f may write no memory and has no barrier
(lowering checks), so each thread's run of f reads only its own parameters, its
coordinates and arrays nobody changes meanwhile; a thread's result is then the same
whatever the other threads do, and a run with all parameters equal to this thread's
values shows it. For the same reason the contract may not use `\\old`, `@`, `\\all` or
`\\none` (they would read other threads or another state).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from ..errors import Span, UnsupportedError
from ..syntax import Clause, ClauseKind
from ..term_walk import map_children, subterms
from ..terms import RESULT, Aggregate, At, Old, Quant, Term, ThreadPred, Var

HINT = "a device function's contract speaks of its parameters, \\result and arrays, at the calling thread"


@dataclass(frozen=True)
class Contract:
    function: str
    requires: tuple[Clause, ...]
    ensures: tuple[Clause, ...]
    params: tuple[str, ...]  # C names, in order


def contract_of(function: str, clauses: list[Clause], params: tuple[str, ...]) -> Contract:
    """The contract of `function` from the clauses before it; what it cannot say is an error."""
    for c in clauses:
        if c.kind not in (ClauseKind.REQUIRES, ClauseKind.ENSURES):
            raise UnsupportedError(f"'{c.kind.value}' before a device function", c.span, HINT)
        for t in subterms(c.formula):
            if isinstance(t, Old | At | ThreadPred):
                what = {Old: "\\old", At: "'@'", ThreadPred: "\\all/\\none"}[type(t)]
                raise UnsupportedError(f"{what} in a device function's contract", t.span or c.span, HINT)
            if c.kind is ClauseKind.REQUIRES and isinstance(t, Var) and t.name == RESULT:
                raise UnsupportedError("'\\result' in a requires clause", t.span or c.span, HINT)
    requires = tuple(c for c in clauses if c.kind is ClauseKind.REQUIRES)
    ensures = tuple(c for c in clauses if c.kind is ClauseKind.ENSURES)
    return Contract(function, requires, ensures, params)


def renamed(term: Term, names: Mapping[str, str]) -> Term:
    """`term` with each free variable `x` of `names` read as `names[x]` (arrays keep their
    indices); bound variables of quantifiers are left alone."""
    if isinstance(term, Quant):
        inner = {k: v for k, v in names.items() if k not in term.names}
        return Quant(term.kind, term.names, renamed(term.body, inner), term.span)
    if isinstance(term, Aggregate):
        inner = {k: v for k, v in names.items() if k != term.name}
        low, high = renamed(term.low, names), renamed(term.high, names)
        return replace(term, low=low, high=high, body=renamed(term.body, inner))
    if isinstance(term, Var):
        indices = tuple(renamed(i, names) for i in term.indices)
        return Var(names.get(term.name, term.name), indices, term.span)
    return map_children(term, lambda t: renamed(t, names))


def at_call(clause: Clause, names: Mapping[str, str], kind: ClauseKind, call: Span) -> Clause:
    """A contract clause read at a call: parameters (and `\\result`) renamed to the call's
    locals; the `assert` of a `requires` stands at the call (its VC names the call's line)."""
    return Clause(kind, renamed(clause.formula, names), call if kind is ClauseKind.ASSERT else clause.span)
