"""Small builders for hand-written core kernels (the parser and lowering come from elsewhere)."""

from __future__ import annotations

from hoaregpu.core import (
    Assert,
    Assign,
    Assume,
    Formula,
    If,
    Kernel,
    Seq,
    Skip,
    Stmt,
    Sync,
    VarDecl,
    VarKind,
    VarRole,
    While,
)
from hoaregpu.errors import Span
from hoaregpu.launch import Launch
from hoaregpu.terms import (
    At,
    Binary,
    BinOp,
    IntLit,
    Old,
    Quant,
    QuantKind,
    Term,
    ThreadCount,
    ThreadId,
    ThreadPred,
    ThreadPredKind,
    Unary,
    UnOp,
    Var,
)

PATH = "k.cu"


def sp(line: int, col: int = 1) -> Span:
    return Span(PATH, line, col)


def lit(v: int) -> IntLit:
    return IntLit(v)


def v(name: str, *idx: Term | int) -> Var:
    return Var(name, tuple(lit(i) if isinstance(i, int) else i for i in idx))


TID = ThreadId()
NTID = ThreadCount()


def _t(x: Term | int) -> Term:
    return lit(x) if isinstance(x, int) else x


def b(op: str, x: Term | int, y: Term | int) -> Binary:
    ops = {o.value: o for o in BinOp}
    return Binary(ops[op], _t(x), _t(y))


def neg(x: Term) -> Unary:
    return Unary(UnOp.NEG, x)


def not_(x: Term) -> Unary:
    return Unary(UnOp.NOT, x)


def at(x: Term, t: Term | int) -> At:
    return At(x, _t(t))


def old(x: Term) -> Old:
    return Old(x)


def forall(names: str | tuple[str, ...], body: Term) -> Quant:
    return Quant(QuantKind.FORALL, (names,) if isinstance(names, str) else names, body)


def exists(names: str | tuple[str, ...], body: Term) -> Quant:
    return Quant(QuantKind.EXISTS, (names,) if isinstance(names, str) else names, body)


def all_(x: Term) -> ThreadPred:
    return ThreadPred(ThreadPredKind.ALL, x)


def none_(x: Term) -> ThreadPred:
    return ThreadPred(ThreadPredKind.NONE, x)


def f(term: Term, line: int) -> Formula:
    return Formula(term, sp(line))


def assign(target: str, idx: tuple[Term | int, ...], value: Term | int, line: int = 0) -> Assign:
    return Assign(target, tuple(_t(i) for i in idx), _t(value), sp(line) if line else None)


def seq(*stmts: Stmt) -> Seq:
    return Seq(tuple(stmts))


def if_(c: Term, then: Stmt, orelse: Stmt | None = None, line: int = 0) -> If:
    return If(c, then, orelse or Skip(), sp(line) if line else None)


def while_(c: Term, body: Stmt, invariants: tuple[Formula, ...] = (), line: int = 0) -> While:
    return While(c, body, invariants, sp(line) if line else None)


def sync(line: int = 0) -> Sync:
    return Sync(sp(line) if line else None)


def assert_(term: Term, line: int) -> Assert:
    return Assert(f(term, line), sp(line))


def assume(term: Term, line: int) -> Assume:
    return Assume(f(term, line), sp(line))


def shared(name: str, dim: int = 1, param: bool = True) -> VarDecl:
    return VarDecl(name, VarKind.SHARED, dim, VarRole.ARRAY_PARAM if param else VarRole.SHARED_ARRAY)


def local(name: str, dim: int = 0, param: bool = False, nonneg: bool = False) -> VarDecl:
    return VarDecl(name, VarKind.LOCAL, dim, VarRole.SCALAR_PARAM if param else VarRole.LOCAL, nonneg)


def kernel(
    decls: list[VarDecl],
    body: Stmt,
    requires: tuple[Formula, ...] = (),
    ensures: tuple[Formula, ...] = (),
    fixed_threads: int | None = None,
) -> Kernel:
    params = tuple(d.name for d in decls if d.role in (VarRole.ARRAY_PARAM, VarRole.SCALAR_PARAM))
    return Kernel("k", params, tuple(decls), requires, ensures, body, Launch.of_threads(fixed_threads))
