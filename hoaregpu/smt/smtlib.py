"""Standalone SMT-LIB 2 scripts for a VC, and reading them back into pySMT.

pySMT 0.9.6 gets integer division wrong in both directions: its printer writes an
Int `Div` as `/` (real division in SMT-LIB) and its parser does not know `div`. The
printer and parser here fix both, so that `read_script(script_text(f))` gives back
`f` and every solver reads `div` with SMT-LIB's Euclidean semantics.

A script is self-contained: logic, one `declare-fun` per free symbol (sorted by
name, so the text is deterministic), one `assert`, `check-sat`, and optionally a
`get-value` for the terms whose values make a counterexample readable.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from io import StringIO
from typing import Any

from pysmt.environment import get_env
from pysmt.fnode import FNode
from pysmt.smtlib.parser import SmtLibParser
from pysmt.smtlib.printers import SmtPrinter
from pysmt.typing import PySMTType
from pysmt.utils import quote

from hoaregpu.errors import SolverError

from .printer import FastPrinter

# Quantified, uninterpreted functions, nonlinear integer arithmetic. Accepted by
# z3 4.8.12 and 4.15, cvc4 1.8, cvc5 1.0.3 and 1.4 (UFLIRA is not: z3 4.8.12 rejects it;
# a linear logic makes cvc4/cvc5 reject `div` by a variable).
SMTLIB_LOGIC = "UFNIA"

# Names that, even quoted, would denote a theory symbol (SMT-LIB: |x| and x are the
# same symbol) or confuse a solver.
RESERVED_NAMES = frozenset(
    {
        *("true", "false", "not", "and", "or", "xor", "=>", "=", "distinct", "ite"),
        *("+", "-", "*", "/", "div", "mod", "abs", "<", "<=", ">", ">="),
        *("to_real", "to_int", "is_int", "select", "store"),
        *("forall", "exists", "let", "par", "as", "!", "_"),
    }
)
_UNWRITABLE = re.compile(r"[|\\]")


class _Printer(SmtPrinter):  # type: ignore[misc]
    """pySMT's tree printer, but integer division is `div`."""

    def walk_div(self, formula: FNode) -> Any:
        if get_env().stc.get_type(formula).is_int_type():
            return self.walk_nary(formula, "div")
        return self.walk_nary(formula, "/")


class _TermWriter:
    """One printer for many terms: building a pySMT walker is costly (its dispatch table).
    `smt.printer` writes the text; pySMT's printer (`slow`) only the node kinds it does not
    know (the same text either way)."""

    def __init__(self) -> None:
        self.buf = StringIO()
        self.printer = _Printer(self.buf)
        self.fast = FastPrinter(self.slow)

    def slow(self, term: FNode) -> str:
        self.buf.seek(0)
        self.buf.truncate()
        self.printer.printer(term)
        return self.buf.getvalue()

    def __call__(self, term: FNode) -> str:
        return self.fast(term)


def _sort_text(ty: PySMTType) -> str:
    if ty.is_bool_type():
        return "Bool"
    if ty.is_int_type():
        return "Int"
    if ty.is_real_type():
        return "Real"
    raise SolverError(f"cannot declare a symbol of type {ty} in SMT-LIB")


def _check_name(name: str) -> None:
    if _UNWRITABLE.search(name) or name in RESERVED_NAMES:
        raise SolverError(f"symbol name {name!r} cannot be written in SMT-LIB 2")


def term_writer() -> _TermWriter:
    """A printer of terms as SMT-LIB text (integer division as `div`), to reuse."""
    return _TermWriter()


def declaration(symbol: FNode) -> str:
    name = symbol.symbol_name()
    _check_name(name)
    ty = symbol.symbol_type()
    if ty.is_function_type():
        params = " ".join(_sort_text(p) for p in ty.param_types)
        return f"(declare-fun {quote(name)} ({params}) {_sort_text(ty.return_type)})"
    return f"(declare-fun {quote(name)} () {_sort_text(ty)})"


def script_text(formula: FNode, queries: Sequence[FNode] = ()) -> str:
    """A standalone SMT-LIB 2 script asserting `formula`, with `get-value` of `queries` after sat."""
    symbols: set[FNode] = set(formula.get_free_variables())
    for q in queries:
        symbols.update(q.get_free_variables())
    lines = ["(set-option :produce-models true)", f"(set-logic {SMTLIB_LOGIC})"]
    lines.extend(declaration(s) for s in sorted(symbols, key=lambda s: s.symbol_name()))
    text = _TermWriter()
    lines.append(f"(assert {text(formula)})")
    lines.append("(check-sat)")
    if queries:
        lines.append("(get-value (" + " ".join(text(q) for q in queries) + "))")
    return "\n".join(lines) + "\n"


class _Parser(SmtLibParser):  # type: ignore[misc]
    """pySMT's SMT-LIB parser that also knows integer `div`."""

    def __init__(self) -> None:
        super().__init__(environment=get_env())
        mgr = self.env.formula_manager
        int_div: Callable[..., FNode] = functools.partial(self._int_div, mgr)
        self.interpreted["div"] = self._operator_adapter(int_div)

    def _int_div(self, mgr: Any, left: FNode, right: FNode) -> FNode:
        if not (self.env.stc.get_type(left).is_int_type() and self.env.stc.get_type(right).is_int_type()):
            raise SolverError("`div` applied to a non-integer term")
        result: FNode = mgr.Div(left, right)
        return result


@dataclass(frozen=True)
class ParsedScript:
    """What a script asks: the conjunction of its assertions, and its get-value terms."""

    formula: FNode
    queries: tuple[FNode, ...]


def read_script(text: str) -> ParsedScript:
    """Parse an SMT-LIB 2 script into the current pySMT environment."""
    mgr = get_env().formula_manager
    try:
        script = _Parser().get_script(StringIO(text))
    except SolverError:
        raise
    except Exception as exc:
        raise SolverError(f"cannot read SMT-LIB script: {exc}") from exc
    assertions: list[FNode] = []
    queries: list[FNode] = []
    for cmd in script.commands:
        if cmd.name == "assert":
            assertions.append(cmd.args[0])
        elif cmd.name == "get-value":
            queries.extend(cmd.args)
    formula = assertions[0] if len(assertions) == 1 else mgr.And(assertions)
    return ParsedScript(formula=formula, queries=tuple(queries))
