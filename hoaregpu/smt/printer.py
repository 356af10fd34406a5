"""Terms as SMT-LIB text, fast: the text of pySMT's `SmtPrinter` (with integer `div`),
written by one loop over an explicit stack instead of a generator per node.

pySMT's printer is a `TreeWalker` whose node functions are generators wrapped in an
annotation decorator: four Python frames per node (issue 14: a sixth of VC preparation).
This loop writes the same characters for the operators VCs use; any other node kind is
handed to `fallback` (pySMT's printer), so the text never differs from pySMT's. No depth
limit: the stack is a list.
"""

from __future__ import annotations

from collections.abc import Callable

import pysmt.operators as op
from pysmt.fnode import FNode
from pysmt.utils import quote

_NARY: dict[int, str] = {
    op.AND: "and",
    op.OR: "or",
    op.NOT: "not",
    op.IMPLIES: "=>",
    op.IFF: "=",
    op.PLUS: "+",
    op.MINUS: "-",
    op.TIMES: "*",
    op.EQUALS: "=",
    op.LE: "<=",
    op.LT: "<",
    op.ITE: "ite",
    op.TOREAL: "to_real",
}
_QUANTIFIERS: dict[int, str] = {op.FORALL: "forall", op.EXISTS: "exists"}


class FastPrinter:
    """Prints terms of one pySMT environment; symbol names are quoted once each."""

    def __init__(self, fallback: Callable[[FNode], str]) -> None:
        self._fallback = fallback
        self._names: dict[FNode, str] = {}

    def _name(self, symbol: FNode) -> str:
        text = self._names.get(symbol)
        if text is None:
            text = self._names[symbol] = quote(symbol.symbol_name())
        return text

    def __call__(self, term: FNode) -> str:
        out: list[str] = []
        emit = out.append
        stack: list[FNode | str] = [term]
        pop, push = stack.pop, stack.append
        while stack:
            x = pop()
            if isinstance(x, str):
                emit(x)
                continue
            kind = x.node_type()
            head = _NARY.get(kind)
            if head is None:
                if kind == op.SYMBOL:
                    emit(self._name(x))
                    continue
                if kind == op.INT_CONSTANT:
                    v = x.constant_value()
                    emit(f"(- {-v})" if v < 0 else str(v))
                    continue
                if kind == op.BOOL_CONSTANT:
                    emit("true" if x.constant_value() else "false")
                    continue
                if kind == op.FUNCTION:
                    head = self._name(x.function_name())
                elif kind == op.DIV:
                    head = "div" if x.get_type().is_int_type() else "/"
                elif kind in _QUANTIFIERS:
                    bound = "".join(
                        f"({self._name(v)} {v.symbol_type().as_smtlib(False)})" for v in x.quantifier_vars()
                    )
                    emit(f"({_QUANTIFIERS[kind]} ({bound}) ")
                    push(")")
                    push(x.arg(0))
                    continue
                else:
                    emit(self._fallback(x))
                    continue
            emit("(" + head)
            push(")")
            for a in reversed(x.args()):
                push(a)
                push(" ")
        return "".join(out)
