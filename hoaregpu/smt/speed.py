"""pySMT's per-node walkers without their generic machinery, where the answer is one step away.

pySMT type-checks every node it creates (`FormulaManager.create_node` → the type checker, a
`DagWalker`) and computes free variables with another `DagWalker`. Both memoize, so for a
node built from already-known children the answer is one call of the walker's function for
the node's kind; but `DagWalker.walk` still sets up its stack, pushes the children, pops
them, looks each key up twice and builds the argument list (issue 14: a third of VC
preparation went there). `install(env)` gives the environment's two walkers a `walk` that
takes that one step directly when every child is memoized, and otherwise walks the nodes not yet
memoized in post-order with an explicit stack, calling the same functions on the same
arguments into the same memo: the results are pySMT's. Nothing else changes: the type
checker still rejects an ill-typed node (`PysmtTypeError`), as before.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pysmt.operators as op
from pysmt.environment import Environment
from pysmt.fnode import FNode
from pysmt.walkers import DagWalker


def _direct(walker: DagWalker) -> Any:
    """A `walk` for `walker` (no keyword arguments, keys are the formulas themselves): the
    memoized answer, or one step from memoized children, or an iterative post-order walk
    of the nodes not memoized yet calling the same functions in the same order of children."""
    memo = walker.memoization
    functions = walker.functions
    error = walker.walk_error
    slow = walker.walk  # the bound pySMT method, for calls with keyword arguments

    def compute(f: FNode) -> Any:
        result = memo[f] = functions.get(f.node_type(), error)(f, args=[memo[c] for c in f.args()])
        return result

    def walk(formula: FNode, **kwargs: Any) -> Any:
        if kwargs:
            return slow(formula, **kwargs)
        if formula in memo:
            return memo[formula]
        stack = [formula]
        while stack:
            f = stack[-1]
            if f in memo:
                stack.pop()
                continue
            missing = [c for c in f.args() if c not in memo]
            if missing:
                stack.extend(missing)
                continue
            stack.pop()
            compute(f)
        return memo[formula]

    return walk


def install(env: Environment) -> Environment:
    """Make `env`'s type checker and free-variable oracle take the direct step (idempotent)."""
    for walker in (env.stc, env.fvo):
        if getattr(walker, "_hg_direct", False) or walker.invalidate_memoization:
            continue
        walker.walk = _direct(walker)
        walker._hg_direct = True
    # `create_node` type-checks through `mgr.get_type`, bound on first use: bind it now to
    # the checker's `get_type`, which calls the (instance) `walk` above.
    mgr = env.formula_manager
    mgr.get_type = env.stc.get_type
    mgr._do_type_check = mgr._do_type_check_real
    return env


def substitute(env: Environment, formula: FNode, mapping: Mapping[FNode, FNode]) -> FNode:
    """`formula` with the symbols of `mapping` replaced, as constants, as applied function
    names and as quantified variables: what pySMT's `IdentityDagWalker` with a `walk_symbol`
    looking up `mapping` builds (the same node kinds and payloads, no simplification: a
    substitution of symbols by symbols changes no node's kind), in one loop over an explicit
    stack with a memo of its own."""
    mgr = env.formula_manager
    done: dict[FNode, FNode] = {}
    stack = [formula]
    while stack:
        f = stack[-1]
        if f in done:
            stack.pop()
            continue
        args = f.args()
        missing = [a for a in args if a not in done]
        if missing:
            stack.extend(missing)
            continue
        stack.pop()
        kind = f.node_type()
        if kind == op.SYMBOL:
            done[f] = mapping.get(f, f)
            continue
        new_args = tuple(done[a] for a in args)
        payload = f._content.payload
        if kind == op.FUNCTION:
            new_payload = mapping.get(payload, payload)
        elif kind in op.QUANTIFIERS:
            new_payload = tuple(mapping.get(v, v) for v in payload)
        else:
            new_payload = payload
        if new_args == args and new_payload == payload:
            done[f] = f
        else:
            done[f] = mgr.create_node(node_type=kind, args=new_args, payload=new_payload)
    return done[formula]
