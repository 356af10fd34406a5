"""Concrete syntax of proof formulas, masks and programs: a printer and a parser.

The printer and the parser are exact inverses on every AST (`parse(show(f)) == f`), so a
proof written out and read back is the same derivation. Formulas use the spec language's
operators and precedences (C's, with `==>` / `<==>` lowest and `@` tightest), without
chained comparisons. Programs use the paper's syntax on one line:

    x[e] := e | skip | sync | P; Q | if e then P else Q fi | while e do P done
    | assert {φ} | assume {φ}

`;` is right-associative, as H-SEQ splits `P; Q` into P and Q.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..terms import BinOp, UnOp
from .formula import (
    AllNone,
    AssignP,
    At,
    Bin,
    Cond,
    F,
    FnForall,
    Mask,
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

_PREC = {
    BinOp.IFF: 1,
    BinOp.IMPLIES: 2,
    BinOp.OR: 4,
    BinOp.AND: 5,
    BinOp.EQ: 6,
    BinOp.NE: 6,
    BinOp.LT: 7,
    BinOp.LE: 7,
    BinOp.GT: 7,
    BinOp.GE: 7,
    BinOp.SHL: 8,
    BinOp.SHR: 8,
    BinOp.ADD: 9,
    BinOp.SUB: 9,
    BinOp.MUL: 10,
    BinOp.DIV: 10,
    BinOp.MOD: 10,
}
_COND, _UNARY, _AT, _ATOM = 3, 11, 12, 13


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
        p = _PREC[f.op]
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


# ---------------------------------------------------------------- lexing


class SyntaxErr(Exception):
    """A syntax error at a column (0-based) of the text."""

    def __init__(self, message: str, col: int) -> None:
        super().__init__(message)
        self.message = message
        self.col = col


_TOKEN = re.compile(
    r"""\s*(?:
      (?P<num>\d+)
    | (?P<kw>\\forall|\\exists|\\old|\\all|\\none)
    | (?P<ident>threadIdx\.x|blockDim\.x|[A-Za-z_][A-Za-z0-9_]*(?:\.\d+)?(?:'\d+)?)
    | (?P<op><==>|==>|==|!=|<=|>=|<<|>>|&&|\|\||:=|[-+*/%<>!?:()\[\],;@{}])
    )""",
    re.VERBOSE,
)


@dataclass(frozen=True)
class Tok:
    kind: str  # num, kw, ident, op, end
    text: str
    col: int


def tokenize(text: str) -> list[Tok]:
    out: list[Tok] = []
    pos = 0
    while True:
        while pos < len(text) and text[pos].isspace():
            pos += 1
        if pos >= len(text):
            out.append(Tok("end", "", pos))
            return out
        m = _TOKEN.match(text, pos)
        if m is None or m.lastgroup is None:
            raise SyntaxErr(f"unexpected character {text[pos]!r}", pos)
        out.append(Tok(m.lastgroup, m.group(m.lastgroup), m.start(m.lastgroup)))
        pos = m.end()


# ---------------------------------------------------------------- parsing

_LEVELS: list[tuple[BinOp, ...]] = [
    (BinOp.OR,),
    (BinOp.AND,),
    (BinOp.EQ, BinOp.NE),
    (BinOp.LT, BinOp.LE, BinOp.GT, BinOp.GE),
    (BinOp.SHL, BinOp.SHR),
    (BinOp.ADD, BinOp.SUB),
    (BinOp.MUL, BinOp.DIV, BinOp.MOD),
]
_PROG_KEYWORDS = frozenset({"then", "else", "fi", "do", "done", "skip", "sync", "if", "while"})


class Parser:
    def __init__(self, text: str) -> None:
        self.toks = tokenize(text)
        self.i = 0

    # -- helpers
    @property
    def tok(self) -> Tok:
        return self.toks[self.i]

    def at(self, text: str) -> bool:
        return self.tok.kind in ("op", "kw", "ident") and self.tok.text == text

    def take(self) -> Tok:
        t = self.tok
        self.i += 1
        return t

    def expect(self, text: str) -> Tok:
        if not self.at(text):
            raise SyntaxErr(f"expected '{text}', found {self._found()}", self.tok.col)
        return self.take()

    def _found(self) -> str:
        return "end of text" if self.tok.kind == "end" else f"'{self.tok.text}'"

    def ident(self) -> str:
        t = self.tok
        if t.kind != "ident" or t.text in ("threadIdx.x", "blockDim.x"):
            raise SyntaxErr(f"expected a name, found {self._found()}", t.col)
        self.i += 1
        return t.text

    def end(self) -> None:
        if self.tok.kind != "end":
            raise SyntaxErr(f"unexpected {self._found()}", self.tok.col)

    # -- formulas
    def formula(self) -> F:
        if self.tok.kind == "kw" and self.tok.text in ("\\forall", "\\exists"):
            return self.quantifier()
        left = self.implies()
        while self.at("<==>"):
            self.take()
            left = Bin(BinOp.IFF, left, self.implies())
        return left

    def quantifier(self) -> F:
        forall = self.take().text == "\\forall"
        if self.at("int"):
            self.take()
            names = [self.ident()]
            while self.at(","):
                self.take()
                names.append(self.ident())
            self.expect(";")
            return Quant(forall, tuple(names), self.formula())
        if not forall:
            raise SyntaxErr(
                "only '\\forall' ranges over functions ('\\exists int ...' for integers)", self.tok.col
            )
        name = self.ident()
        self.expect(";")
        return FnForall(name, self.formula())

    def implies(self) -> F:
        left = self.conditional()
        if self.at("==>"):
            self.take()
            return Bin(BinOp.IMPLIES, left, self.implies_operand())
        return left

    def implies_operand(self) -> F:
        if self.tok.kind == "kw" and self.tok.text in ("\\forall", "\\exists"):
            return self.quantifier()
        return self.implies()

    def conditional(self) -> F:
        c = self.binary(0)
        if self.at("?"):
            self.take()
            a = self.conditional()
            self.expect(":")
            return Cond(c, a, self.conditional())
        return c

    def binary(self, level: int) -> F:
        if level == len(_LEVELS):
            return self.unary()
        left = self.binary(level + 1)
        ops = {op.value: op for op in _LEVELS[level]}
        while self.tok.kind == "op" and self.tok.text in ops:
            op = ops[self.take().text]
            left = Bin(op, left, self.binary(level + 1))
        return left

    def unary(self) -> F:
        if self.at("!"):
            self.take()
            return Un(UnOp.NOT, self.unary())
        if self.at("-"):
            self.take()
            return Un(UnOp.NEG, self.unary())
        return self.postfix()

    def postfix(self) -> F:
        term = self.primary()
        while self.at("@"):
            self.take()
            term = At(term, self.primary())
        return term

    def primary(self) -> F:
        t = self.tok
        if t.kind == "num":
            self.take()
            return Num(int(t.text))
        if t.kind == "kw":
            if t.text in ("\\forall", "\\exists"):
                return self.quantifier()
            self.take()
            self.expect("(")
            inner = self.formula()
            self.expect(")")
            if t.text == "\\old":
                return Old(inner)
            return AllNone(t.text == "\\all", inner)
        if self.at("("):
            self.take()
            inner = self.formula()
            self.expect(")")
            return inner
        if t.kind == "ident":
            if t.text in ("tid", "threadIdx.x"):
                self.take()
                return Tid()
            if t.text in ("ntid", "blockDim.x"):
                self.take()
                return Ntid()
            if t.text in ("true", "false"):
                self.take()
                return Num(1 if t.text == "true" else 0)
            if t.text == "assign" and self.toks[self.i + 1].text == "(":
                return self.assign_pred()
            if t.text in _PROG_KEYWORDS:
                raise SyntaxErr(f"unexpected keyword '{t.text}'", t.col)
            name = self.ident()
            return Name(name, self.indices())
        raise SyntaxErr(f"expected an expression, found {self._found()}", t.col)

    def indices(self) -> tuple[F, ...]:
        out = []
        while self.at("["):
            self.take()
            out.append(self.formula())
            self.expect("]")
        return tuple(out)

    def assign_pred(self) -> F:
        self.take()
        self.expect("(")
        new = self.ident()
        self.expect(",")
        mask = self.formula()
        self.expect(",")
        target = self.ident()
        self.expect(",")
        self.expect("[")
        idx: list[F] = []
        if not self.at("]"):
            idx.append(self.formula())
            while self.at(","):
                self.take()
                idx.append(self.formula())
        self.expect("]")
        self.expect(",")
        value = self.formula()
        self.expect(")")
        return AssignP(new, mask, target, tuple(idx), value)

    # -- programs
    def prog(self) -> Prog:
        first = self.stmt()
        if self.at(";"):
            self.take()
            return PSeq(first, self.prog())
        return first

    def stmt(self) -> Prog:
        if self.at("skip"):
            self.take()
            return PSkip()
        if self.at("sync"):
            self.take()
            return PSync()
        if self.at("if"):
            self.take()
            c = self.formula()
            self.expect("then")
            a = self.prog()
            self.expect("else")
            b = self.prog()
            self.expect("fi")
            return PIf(c, a, b)
        if self.at("while"):
            self.take()
            c = self.formula()
            self.expect("do")
            body = self.prog()
            self.expect("done")
            return PWhile(c, body)
        if self.at("assert") or self.at("assume"):
            kind = self.take().text
            self.expect("{")
            f = self.formula()
            self.expect("}")
            return PAssert(f) if kind == "assert" else PAssume(f)
        target = self.ident()
        idx = self.indices()
        self.expect(":=")
        return PAssign(target, idx, self.formula())

    # -- masks
    def mask(self) -> Mask:
        if self.at("T") and self.toks[self.i + 1].kind == "end":
            self.take()
            return ()
        lits = [self.mask_literal()]
        while self.at("&&"):
            self.take()
            lits.append(self.mask_literal())
        return tuple(lits)

    def mask_literal(self) -> tuple[str, bool]:
        positive = True
        if self.at("!"):
            self.take()
            positive = False
        return (self.ident(), positive)


def parse_formula_text(text: str) -> F:
    p = Parser(text)
    f = p.formula()
    p.end()
    return f


def parse_prog_text(text: str) -> Prog:
    p = Parser(text)
    prog = p.prog()
    p.end()
    return prog


def parse_mask_text(text: str) -> Mask:
    p = Parser(text)
    m = p.mask()
    p.end()
    return m
