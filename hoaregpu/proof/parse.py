"""Parser of the concrete syntax of proof formulas, masks and programs (syntax.py's inverse)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..terms import AggKind, BinOp, UnOp
from .formula import (
    Agg,
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
    | (?P<kw>(?:\\forall|\\exists|\\old|\\all|\\none|\\sum|\\product|\\numof|\\max|\\min|\\lambda)
             (?![A-Za-z0-9_]))
    | (?P<ident>threadIdx\.x|blockDim\.x|[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*(?:'\d+)?)
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
_AGGREGATES = {k.value: k for k in AggKind}
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
            if t.text in _AGGREGATES:
                return self.aggregate()
            if t.text == "\\lambda":
                raise SyntaxErr("'\\lambda' may only stand as the last argument of an aggregate", t.col)
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

    def aggregate(self) -> F:
        """`\\sum(lo, hi, \\lambda int k; e)` (and `\\product`, `\\numof`, `\\max`, `\\min`).
        The two-argument `\\max(a, b)` of specs is a conditional by now: never printed."""
        kind = _AGGREGATES[self.take().text]
        self.expect("(")
        low = self.formula()
        self.expect(",")
        high = self.formula()
        if not self.at(","):
            raise SyntaxErr(
                f"'{kind.value}' takes a range and a '\\lambda': {kind.value}(lo, hi, \\lambda int k; e)",
                self.tok.col,
            )
        self.take()
        self.expect("\\lambda")
        self.expect("int")
        name = self.ident()
        self.expect(";")
        body = self.formula()
        self.expect(")")
        return Agg(kind, low, high, name, body)

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
