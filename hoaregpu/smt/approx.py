"""Uninterpreted functions that stand for C operations the encoding does not model exactly.

Where an operation has no exact encoding on mathematical integers (a bitwise `&` of two
variables, a shift by a negative or huge amount, float arithmetic), its value is an
application of an uninterpreted function `hg!NAME`, sometimes clamped into a range the
true value is known to lie in (`clamp`). This is sound for proofs: the true operation is
one interpretation of the function, so a VC valid for every interpretation holds in C.

It is not sound for refutations: the solver may pick an interpretation no C program has.
So a VC whose formula mentions such a function is *approximate*: `approximations` names
what it depends on, and the driver reports its refutation as undecided unless running the
counterexample confirms it (`hoaregpu.driver.settle_approximate`).

`!` never occurs in program names, so `hg!...` symbols never clash with a variable's.
"""

from __future__ import annotations

from pysmt.fnode import FNode
from pysmt.formula import FormulaManager
from pysmt.typing import FunctionType, PySMTType

PREFIX = "hg!"

# symbol name (without the prefix) -> what the report says the VC depends on
DESCRIPTIONS: dict[str, str] = {
    "band": "bitwise '&' of two non-constant operands",
    "shl": "'<<' by an amount outside 0..63",
    "shr": "'>>' by an amount outside 0..63",
}


def register(name: str, description: str) -> None:
    """Declare another family of approximations (floats, ...), for `approximations`."""
    DESCRIPTIONS.setdefault(name, description)


def function(mgr: FormulaManager, name: str, result: PySMTType, args: list[PySMTType]) -> FNode:
    """The uninterpreted function `hg!name` (one symbol per name and environment)."""
    return mgr.Symbol(PREFIX + name, FunctionType(result, args))


def clamp(mgr: FormulaManager, value: FNode, low: FNode | None, high: FNode | None) -> FNode:
    """`value` forced into [low, high]: where the true result is known to lie in that range,
    the clamped unknown is still exact for the interpretation that gives the true result,
    and the solver learns the range without a quantified axiom."""
    if low is not None:
        value = mgr.Ite(mgr.LT(value, low), low, value)
    if high is not None:
        value = mgr.Ite(mgr.GT(value, high), high, value)
    return value


def approximations(formula: FNode) -> tuple[str, ...]:
    """What the VC's formula approximates (sorted descriptions), empty when it is exact."""
    found = set()
    for sym in formula.get_free_variables():
        name = sym.symbol_name()
        if name.startswith(PREFIX):
            key = name[len(PREFIX) :].split("!")[0]
            found.add(DESCRIPTIONS.get(key, key))
    return tuple(sorted(found))
