"""Printing terms in the spec language's syntax and core programs in the paper's syntax.

Used by `verify --show-core`, by error messages and by counterexample notes.
"""

from __future__ import annotations

from . import core
from .floats import from_bits
from .terms import (
    Access,
    Aggregate,
    At,
    Binary,
    BinOp,
    BlockCount,
    BlockId,
    Conditional,
    IntLit,
    Old,
    Quant,
    Term,
    ThreadCount,
    ThreadId,
    ThreadPred,
    Unary,
    UnOp,
    Var,
    builtin_name,
)

_COND_PREC = 3
_UNARY_PREC = 14
_ATOM_PREC = 15


def show_term(t: Term) -> str:
    return _show(t)[0]


def _paren(t: Term, min_prec: int) -> str:
    text, prec = _show(t)
    return f"({text})" if prec < min_prec else text


def _show(t: Term) -> tuple[str, int]:
    if isinstance(t, IntLit):
        return (str(t.value), _ATOM_PREC if t.value >= 0 else _UNARY_PREC)
    if isinstance(t, ThreadId | ThreadCount) and t.axis == 0:
        return ("tid" if isinstance(t, ThreadId) else "ntid", _ATOM_PREC)
    if isinstance(t, ThreadId | ThreadCount | BlockId | BlockCount):
        return (builtin_name(t), _ATOM_PREC)
    if isinstance(t, Var):
        return (t.name + "".join(f"[{show_term(i)}]" for i in t.indices), _ATOM_PREC)
    if isinstance(t, Binary):
        p = t.op.precedence
        right_assoc = t.op is BinOp.IMPLIES
        left = _paren(t.left, p + 1 if right_assoc else p)
        right = _paren(t.right, p if right_assoc else p + 1)
        return (f"{left} {t.op.value} {right}", p)
    if isinstance(t, Unary) and t.op is UnOp.FLIT and isinstance(t.operand, IntLit):
        return (repr(from_bits(t.operand.value)), _ATOM_PREC)  # a float constant
    if isinstance(t, Unary):
        return (f"{t.op.value}{_paren(t.operand, _UNARY_PREC)}", _UNARY_PREC)
    if isinstance(t, Conditional):
        c = _paren(t.cond, _COND_PREC + 1)
        return (f"{c} ? {_paren(t.then, _COND_PREC)} : {_paren(t.orelse, _COND_PREC)}", _COND_PREC)
    if isinstance(t, Quant):
        return (f"{t.kind.value} int {', '.join(t.names)}; {show_term(t.body)}", 0)
    if isinstance(t, Aggregate):
        lam = f"\\lambda int {t.name}; {show_term(t.body)}"
        return (f"{t.kind.value}({show_term(t.low)}, {show_term(t.high)}, {lam})", _ATOM_PREC)
    if isinstance(t, At):
        where = (
            _paren(t.thread, _ATOM_PREC)
            if t.block is None
            else f"({show_term(t.block)}, {show_term(t.thread)})"
        )
        return (f"{_paren(t.term, _ATOM_PREC)} @ {where}", _ATOM_PREC - 1)
    if isinstance(t, Old):
        return (f"\\old({show_term(t.term)})", _ATOM_PREC)
    if isinstance(t, ThreadPred):
        return (f"{t.kind.value}({show_term(t.term)})", _ATOM_PREC)
    if isinstance(t, Access) and isinstance(t.target, Var):
        cell = [] if t.any_cell else [show_term(i) for i in t.target.indices]
        return (f"{t.kind.value}({', '.join([t.target.name, *cell])})", _ATOM_PREC)
    raise AssertionError(f"unexpected term {t!r}")


def show_stmt(s: core.Stmt, indent: int = 0) -> list[str]:
    pad = "  " * indent
    if isinstance(s, core.Assign):
        idx = "".join(f"[{show_term(i)}]" for i in s.indices)
        return [f"{pad}{s.target}{idx} := {show_term(s.value)}"]
    if isinstance(s, core.Skip):
        return [f"{pad}skip"]
    if isinstance(s, core.Sync):
        return [f"{pad}{'grid_sync' if s.grid else 'sync'}"]
    if isinstance(s, core.Seq):
        lines: list[str] = []
        for i, sub in enumerate(s.stmts):
            part = show_stmt(sub, indent)
            if i < len(s.stmts) - 1:
                part[-1] += ";"
            lines.extend(part)
        return lines or [f"{pad}skip"]
    if isinstance(s, core.If):
        out = [f"{pad}if {show_term(s.cond)} then"]
        out += show_stmt(s.then, indent + 1)
        out.append(f"{pad}else")
        out += show_stmt(s.orelse, indent + 1)
        out.append(f"{pad}fi")
        return out
    if isinstance(s, core.While):
        out = [f"{pad}while {show_term(s.cond)}"]
        out += [f"{pad}  invariant {show_term(f.term)}" for f in s.invariants]
        out.append(f"{pad}do")
        out += show_stmt(s.body, indent + 1)
        out.append(f"{pad}done")
        return out
    if isinstance(s, core.Assert):
        note = "" if s.check is core.CheckKind.ASSERTION else f" /* {s.check.value} */"
        return [f"{pad}assert {show_term(s.formula.term)}{note}"]
    if isinstance(s, core.Assume):
        cut = f"forget {', '.join(s.forget)}; " if s.forget else ""
        return [f"{pad}{cut}assume {show_term(s.formula.term)}"]
    if isinstance(s, core.Opaque) and s.atomic is not None:
        a = s.atomic
        cell = a.target + "".join(f"[{show_term(i)}]" for i in a.indices)
        args = ", ".join([f"&{cell}", *(show_term(o) for o in a.operands)])
        return [f"{pad}{a.result} := {s.function}({args}) /* atomic */"]
    if isinstance(s, core.Opaque) and s.declared_only:
        return [f"{pad}havoc {', '.join(s.havoc) or 'nothing'} /* call of {s.function}, declared only */"]
    if isinstance(s, core.Opaque):
        return [
            f"{pad}call {s.function} /* through its contract */ {{",
            *show_stmt(s.body, indent + 1),
            f"{pad}}}",
        ]
    raise AssertionError(f"unexpected statement {s!r}")


def show_kernel(k: core.Kernel) -> str:
    lines = [f"kernel {k.name}({', '.join(k.params)})"]
    for d in k.decls:
        dims = "[]" * d.dim
        origin = f" (C name {d.source_name})" if d.source_name else ""
        lines.append(f"  {d.kind.value} {d.name}{dims}: {d.role.value}{origin}")
    lines += [f"  requires {show_term(f.term)}" for f in k.requires]
    lines += [f"  ensures {show_term(f.term)}" for f in k.ensures]
    lines.append("body")
    lines += show_stmt(k.body, 1)
    return "\n".join(lines)
