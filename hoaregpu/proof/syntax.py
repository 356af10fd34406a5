"""Concrete syntax of proof formulas and programs: the printer (parse.py is its exact inverse).

The printer and the parser are exact inverses on every AST (`parse(show(f)) == f`), so a
proof written out and read back is the same derivation. Formulas use the spec language's
operators and precedences (C's, with `==>` / `<==>` lowest and `@` tightest), without
chained comparisons. Programs use the paper's syntax on one line:

    x[e] := e | skip | sync | P; Q | if e then P else Q fi | while e do P done
    | assert {φ} | assume {φ}

`;` is right-associative, as H-SEQ splits `P; Q` into P and Q.
"""

from __future__ import annotations

from ..terms import BinOp
from .formula import (
    Agg,
    AllNone,
    AssignP,
    At,
    Bin,
    Cond,
    F,
    FnForall,
    Name,
    Ntid,
    Num,
    Old,
    PAssert,
    PAssign,
    PAssume,
    PIf,
    Prog,
    PSeq,
    PSkip,
    PSync,
    PWhile,
    Quant,
    Tid,
    Un,
)

# ---------------------------------------------------------------- printing

_COND, _UNARY, _AT, _ATOM = 3, 14, 15, 16


def show(f: F) -> str:
    return _show(f)[0]


def _paren(f: F, min_prec: int) -> str:
    text, prec = _show(f)
    return f"({text})" if prec < min_prec else text


def _show(f: F) -> tuple[str, int]:
    if isinstance(f, Num):
        return (str(f.value), _ATOM)
    if isinstance(f, Tid):
        return ("tid", _ATOM)
    if isinstance(f, Ntid):
        return ("ntid", _ATOM)
    if isinstance(f, Name):
        return (f.name + "".join(f"[{show(i)}]" for i in f.indices), _ATOM)
    if isinstance(f, Bin):
        p = f.op.precedence
        right_assoc = f.op is BinOp.IMPLIES
        left = _paren(f.left, p + 1 if right_assoc else p)
        right = _paren(f.right, p if right_assoc else p + 1)
        return (f"{left} {f.op.value} {right}", p)
    if isinstance(f, Un):
        return (f"{f.op.value}{_paren(f.operand, _UNARY)}", _UNARY)
    if isinstance(f, Cond):
        c = _paren(f.cond, _COND + 1)
        return (f"{c} ? {_paren(f.then, _COND)} : {_paren(f.orelse, _COND)}", _COND)
    if isinstance(f, Quant):
        kind = "\\forall" if f.forall else "\\exists"
        return (f"{kind} int {', '.join(f.names)}; {show(f.body)}", 0)
    if isinstance(f, FnForall):
        return (f"\\forall {f.name}; {show(f.body)}", 0)
    if isinstance(f, At):
        return (f"{_paren(f.term, _ATOM)} @ {_paren(f.thread, _ATOM)}", _AT)
    if isinstance(f, Old):
        return (f"\\old({show(f.term)})", _ATOM)
    if isinstance(f, AllNone):
        return (f"\\{'all' if f.all else 'none'}({show(f.term)})", _ATOM)
    if isinstance(f, Agg):
        lam = f"\\lambda int {f.name}; {show(f.body)}"
        return (f"{f.kind.value}({show(f.low)}, {show(f.high)}, {lam})", _ATOM)
    if isinstance(f, AssignP):
        idx = ", ".join(show(i) for i in f.indices)
        return (f"assign({f.new}, {show(f.mask)}, {f.target}, [{idx}], {show(f.value)})", _ATOM)
    raise AssertionError(f"unexpected formula {f!r}")


def show_prog(p: Prog) -> str:
    if isinstance(p, PAssign):
        return f"{p.target}{''.join(f'[{show(i)}]' for i in p.indices)} := {show(p.value)}"
    if isinstance(p, PSkip):
        return "skip"
    if isinstance(p, PSync):
        return "sync"
    if isinstance(p, PSeq):
        return f"{show_prog(p.first)}; {show_prog(p.second)}"
    if isinstance(p, PIf):
        return f"if {show(p.cond)} then {show_prog(p.then)} else {show_prog(p.orelse)} fi"
    if isinstance(p, PWhile):
        return f"while {show(p.cond)} do {show_prog(p.body)} done"
    if isinstance(p, PAssert):
        return f"assert {{{show(p.formula)}}}"
    if isinstance(p, PAssume):
        return f"assume {{{show(p.formula)}}}"
    raise AssertionError(f"unexpected program {p!r}")
