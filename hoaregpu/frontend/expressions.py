"""Clang's expressions → terms of `hoaregpu.terms` (the part of the front end that reads C
expressions; `translate.py` builds statements and kernels on top of it).

What C means and mathematical integers agree on is translated (bitwise operators on the
two's complement expansion; floats as opaque values, `frontend/floats.py`); the rest
(pointers, wrapping conversions, ...) is an UnsupportedError naming the construct at its
position.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..errors import Span, UnsupportedError
from ..floats import literal as float_literal
from ..syntax import AssignOp, BaseType, Stmt
from ..terms import (
    Binary,
    BinOp,
    BlockCount,
    BlockId,
    Conditional,
    Fits,
    IntLit,
    Term,
    ThreadCount,
    ThreadId,
    Unary,
    UnOp,
    Unsigned,
    Var,
    builtin,
)
from . import clang, floats

TYPES_HINT = (
    "supported types: bool and the integer types (char, short, int, long, their unsigned variants, size_t),"
    " all read as mathematical integers, and float/double as opaque values;"
    " arrays and pointer parameters of them; structs of them"
)
BUILTIN_HINT = "the built-in variables are threadIdx, blockIdx, blockDim and gridDim with .x, .y, .z"

# libclang's CXBinaryOperatorKind / CXUnaryOperatorKind (clang-c/Index.h, LLVM 17+)
_BINARY = {
    3: BinOp.MUL,
    4: BinOp.DIV,
    5: BinOp.MOD,
    6: BinOp.ADD,
    7: BinOp.SUB,
    8: BinOp.SHL,
    9: BinOp.SHR,
    11: BinOp.LT,
    12: BinOp.GT,
    13: BinOp.LE,
    14: BinOp.GE,
    15: BinOp.EQ,
    16: BinOp.NE,
    17: BinOp.BAND,
    18: BinOp.BXOR,
    19: BinOp.BOR,
    20: BinOp.AND,
    21: BinOp.OR,
}
_BINARY_UNSUPPORTED = {1: ".*", 2: "->*", 10: "<=>", 33: ","}
_BITWISE = (BinOp.BAND, BinOp.BOR, BinOp.BXOR)
_ASSIGN = 22
_COMPOUND = {
    23: AssignOp.MUL,
    24: AssignOp.DIV,
    25: AssignOp.MOD,
    26: AssignOp.ADD,
    27: AssignOp.SUB,
    28: AssignOp.SHL,
    29: AssignOp.SHR,
    30: AssignOp.BAND,
    31: AssignOp.BXOR,
    32: AssignOp.BOR,
}
_POST_INC, _POST_DEC, _PRE_INC, _PRE_DEC = 1, 2, 3, 4
_UNARY_UNSUPPORTED = {5: "address-of '&'", 6: "pointer dereference '*'"}
_PLUS, _MINUS, _BNOT, _LNOT = 7, 8, 9, 10

_SIGNED = {"INT", "LONG", "LONGLONG", "SHORT", "CHAR_S", "SCHAR", "INT128"}
_UNSIGNED = {"UINT", "ULONG", "ULONGLONG", "USHORT", "UCHAR", "CHAR_U", "UINT128"}


@dataclass
class ExpressionTranslator:
    tu: Any
    path: str  # as the user named the file (in messages)
    tu_path: str  # as Clang knows it
    chars: clang.CharOffsets
    # names of the kernel's unsigned parameters (and arrays of them) no local shadows
    unsigned_params: frozenset[str] = frozenset()
    # inlining device functions (inline.py): the statements a call in an expression needs
    # first, and how deep the expression is inside the right of && / || or a branch of ?:
    pending: list[Stmt] = field(default_factory=list)
    guarded: int = 0

    def __post_init__(self) -> None:
        self.ci = clang.cindex()
        self.K = self.ci.CursorKind

    def span(self, cur: Any) -> Span:
        # in characters: Clang's columns count bytes (wrong after a non-ASCII character)
        return Span(self.path, *self.chars.linecol(cur.location.offset))

    def unsupported(self, what: str, cur: Any, hint: str | None = None) -> UnsupportedError:
        return UnsupportedError(what, self.span(cur), hint)

    def base_type(self, ty: Any, cur: Any, spelling: str) -> BaseType:
        kind = ty.kind.name
        if kind == "BOOL":
            return BaseType.BOOL
        if kind in _SIGNED:
            return BaseType.INT
        if kind in _UNSIGNED:
            return BaseType.UNSIGNED
        if kind in floats.FLOAT_KINDS:
            return BaseType.FLOAT
        raise self.unsupported(f"type '{spelling}'", cur, TYPES_HINT)

    def guarded_expr(self, cur: Any) -> Term:
        self.guarded += 1
        try:
            return self.expr(cur)
        finally:
            self.guarded -= 1

    def call_value(self, cur: Any) -> Term:
        """A call inside an expression (device functions are inlined by translate.py)."""
        raise self.call(cur)

    def global_ref(self, cur: Any, ref: Any) -> Term:
        """A file-scope variable (filescope.py)."""
        raise self.unsupported(f"file-scope variable '{cur.spelling}'", cur)

    def member(self, cur: Any) -> Term:
        """`s.f`, `a[i].f`, `p->f` on a struct (aggregates.py)."""
        raise self.unsupported("struct member access", cur, TYPES_HINT)

    def call(self, cur: Any) -> UnsupportedError:
        if cur.spelling.startswith("atomic"):
            return self.unsupported(
                f"call to '{cur.spelling}'",
                cur,
                "atomics are not supported yet: active threads updating one cell serialise in an"
                " unknown order, which the lockstep rules do not model",
            )
        return self.unsupported(
            f"call to '{cur.spelling}'", cur, "the only call supported is the statement '__syncthreads();'"
        )

    # ------------------------------------------------------------ expressions

    def lvalue(self, cur: Any) -> Var:
        cur = _strip(cur, self.K)
        term = self.expr(cur)
        if not isinstance(term, Var):
            raise self.unsupported(
                "assignment to this expression", cur, "assign to a variable or an array cell"
            )
        return term

    def cond(self, cur: Any) -> Term:
        if cur.kind in (self.K.DECL_STMT, self.K.VAR_DECL):
            raise self.unsupported("declaration inside a condition", cur)
        return self.expr(cur)

    def expr(self, cur: Any) -> Term:
        K = self.K
        k = cur.kind
        span = self.span(cur)
        if floats.is_float(cur) and k != K.ARRAY_SUBSCRIPT_EXPR:
            value = floats.constant(cur)  # `1.5f`, `(float)2`, `0` stored into a float
            if value is not None:
                return float_literal(value, span)
        if k in (K.UNEXPOSED_EXPR, K.PAREN_EXPR):
            children = list(cur.get_children())
            if len(children) != 1:
                raise self.unsupported("this expression", cur)
            return self.converted(cur, children[0])
        if k in (K.INTEGER_LITERAL, K.CXX_BOOL_LITERAL_EXPR, K.CHARACTER_LITERAL, K.CXX_UNARY_EXPR):
            # CXX_UNARY_EXPR is sizeof/alignof: a constant Clang computes for the GPU target
            return IntLit(self.constant(cur), span)
        if k == K.DECL_REF_EXPR:
            ref = cur.referenced
            if ref is not None and ref.kind == K.ENUM_CONSTANT_DECL:
                return IntLit(int(ref.enum_value), span)
            # `extern __shared__ int s[];` inside a kernel belongs to the file's scope
            # semantically but is declared in the kernel: only its lexical place counts
            if ref is not None and ref.kind == K.VAR_DECL and ref.lexical_parent.kind == K.TRANSLATION_UNIT:
                if _is_prelude(ref) and ref.spelling in ("tid", "ntid"):
                    # the paper's names, declared by the prelude (a C variable may shadow them)
                    return ThreadId(span) if ref.spelling == "tid" else ThreadCount(span)
                if _is_prelude(ref):
                    raise self.unsupported(f"'{cur.spelling}'", cur, BUILTIN_HINT)
                return self.global_ref(cur, ref)
            return Var(cur.spelling, (), span)
        if k == K.ARRAY_SUBSCRIPT_EXPR:
            base, index = cur.get_children()
            target = self.expr(base)
            if not isinstance(target, Var):
                raise self.unsupported("indexing this expression", cur)
            # C zero-extends an unsigned index: a wrapped one reaches far away
            idx = self.observed(self.expr(index), index) if _is_unsigned(index) else self.expr(index)
            return Var(target.name, (*target.indices, idx), target.span or span)
        if k == K.MEMBER_REF_EXPR:
            return self.builtin(cur)
        if k == K.BINARY_OPERATOR:
            op = clang.binary_operator(cur)
            if op in _BINARY and floats.is_float(next(cur.get_children())):
                left, right = cur.get_children()
                kind = floats.kind_of(cur.type)
                return floats.binary(_BINARY[op], self.expr(left), self.expr(right), kind, cur, span)
            if op in _BINARY:
                left, right = cur.get_children()
                bop = _BINARY[op]
                a = self.expr(left)
                # C evaluates the right of && and || only sometimes: no call may be hoisted from it
                b = self.guarded_expr(right) if bop in (BinOp.AND, BinOp.OR) else self.expr(right)
                # where C reads an unsigned value as a number, it must not have wrapped
                if (bop.is_comparison or bop in (BinOp.DIV, BinOp.MOD)) and _is_unsigned(left):
                    a, b = self.observed(a, left), self.observed(b, right)
                elif bop is BinOp.SHR and _is_unsigned(left):
                    a = self.observed(a, left)
                elif bop in _BITWISE:
                    a, b = self.bit_operand(a, left), self.bit_operand(b, right)
                return Binary(bop, a, b, span)
            if op == _ASSIGN:
                raise self.unsupported("assignment inside an expression", cur)
            raise self.unsupported(f"operator '{_BINARY_UNSUPPORTED.get(op, '?')}'", cur, _OPS_HINT)
        if k == K.COMPOUND_ASSIGNMENT_OPERATOR:
            raise self.unsupported("assignment inside an expression", cur)
        if k == K.UNARY_OPERATOR:
            op = clang.unary_operator(cur)
            (operand,) = cur.get_children()
            if op == _MINUS:
                neg = UnOp.FNEG if floats.is_float(operand) else UnOp.NEG
                return Unary(neg, self.expr(operand), span)
            if op == _LNOT:
                return Unary(UnOp.NOT, self.expr(operand), span)
            if op == _PLUS:
                return self.expr(operand)
            if op == _BNOT:
                # two's complement: ~x = x ^ -1 (= -x - 1); in an unsigned type of w bits the
                # result is x ^ (2^w - 1) (= 2^w - 1 - x), which keeps it in range
                ones = 2 ** _width(cur) - 1 if _is_unsigned(cur) else -1
                return Binary(BinOp.BXOR, self.expr(operand), IntLit(ones, span), span)
            if op in _UNARY_UNSUPPORTED:
                raise self.unsupported(_UNARY_UNSUPPORTED[op], cur, _OPS_HINT)
            raise self.unsupported(
                "'++'/'--' inside an expression", cur, "write it as a statement of its own"
            )
        if k == K.CONDITIONAL_OPERATOR:
            c, a, b = cur.get_children()
            cond = self.expr(c)
            then, orelse = self.guarded_expr(a), self.guarded_expr(b)
            return Conditional(cond, then, orelse, span)
        if k in (K.CSTYLE_CAST_EXPR, K.CXX_STATIC_CAST_EXPR, K.CXX_FUNCTIONAL_CAST_EXPR):
            return self.cast(cur)
        if k == K.CALL_EXPR:
            if self.guarded:
                raise self.unsupported(
                    f"call to '{cur.spelling}' under '&&', '||' or '?:'",
                    cur,
                    "call it in a statement of its own",
                )
            return self.call_value(cur)
        raise self.unsupported(f"expression of kind {k.name.lower()}", cur)

    def converted(self, cur: Any, operand: Any) -> Term:
        """An implicit conversion (or none: Clang's UNEXPOSED_EXPR also stands for reading a
        variable). Values are mathematical, and + - * on unsigned values agree with C's
        modulo 2^w, so a conversion needs no check, except that widening an unsigned value
        (to a 64-bit type) reads it as a number."""
        term = self.expr(operand)
        source, target = floats.kind_of(operand.type), floats.kind_of(cur.type)
        if source in floats.FLOAT_KINDS or target in floats.FLOAT_KINDS:
            if target not in floats.FLOAT_KINDS or source == target:
                return floats.convert(term, source, target) if source != target else term
            return floats.convert(
                self.observed(term, operand) if _is_unsigned(operand) else term, source, target
            )
        if _is_unsigned(operand) and _width(cur) > _width(operand):
            return self.observed(term, operand)
        return term

    def observed(self, term: Term, cur: Any) -> Term:
        """`term`, of an unsigned type in C, where C reads it as a number (compares, divides,
        indexes, stores it into an unsigned variable, widens it): C's value equals the
        mathematical one only if that is not negative, so the mark asks for the check
        (`hoaregpu.unsigned`). Values that cannot be negative need none."""
        if isinstance(term, Unsigned) or self.nonneg(term):
            return term
        return Unsigned(term, self.span(cur))

    def store(self, term: Term, ty: Any, cur: Any) -> Term:
        """`term` stored into a variable (or parameter, or result) of type `ty`: an unsigned
        one keeps it modulo 2^w (it must not be negative), a narrow one (`char`, `short`)
        truncates it (it must fit); both are marks for checks (`hoaregpu.unsigned`)."""
        kind = ty.get_canonical().kind.name
        if kind in _NARROW:
            low, high = _NARROW[kind]
            if isinstance(term, IntLit) and low <= term.value <= high:
                return term
            return Fits(term, low, high, self.span(cur))
        return self.observed(term, cur) if kind in _UNSIGNED else term

    def nonneg(self, t: Term) -> bool:
        """Whether `t` cannot be negative in the model: built by + * / % << >> from constants
        that are not negative, thread ids and unsigned parameters (other unsigned variables
        may start with any value in the model, so they are checked)."""
        if isinstance(t, IntLit):
            return t.value >= 0
        if isinstance(t, ThreadId | ThreadCount | BlockId | BlockCount | Unsigned):
            return True  # an Unsigned mark is checked not to be negative
        if isinstance(t, Fits):
            return t.low >= 0
        if isinstance(t, Var):
            return t.name in self.unsigned_params and all(self.nonneg(i) for i in t.indices)
        if isinstance(t, Binary) and (t.op.is_comparison or t.op in (BinOp.AND, BinOp.OR)):
            return True  # 0 or 1
        if isinstance(t, Unary) and t.op is UnOp.NOT:
            return True
        if isinstance(t, Binary) and t.op in _NONNEG_OPS:
            return self.nonneg(t.left) and self.nonneg(t.right)
        if isinstance(t, Binary) and t.op is BinOp.BAND:  # x & c lies in [0, c] for c >= 0
            return self.nonneg(t.left) or self.nonneg(t.right)
        if isinstance(t, Conditional):
            return self.nonneg(t.then) and self.nonneg(t.orelse)
        return False

    def bit_operand(self, term: Term, cur: Any) -> Term:
        """An operand of `&`, `|`, `^`: a `bool` one is 0 or 1, and as a condition the
        encoder makes `b1 & b2` a conjunction (`hoaregpu.smt.bitops`)."""
        if _strip(cur, self.K).type.get_canonical().kind.name == "BOOL":
            return Binary(BinOp.NE, term, IntLit(0), term.span)
        return term

    def cast(self, cur: Any) -> Term:
        """Casts between integer types are the identity on mathematical integers (a cast to a
        narrow type must fit, see `store`); a cast to bool is `e != 0`."""
        target = cur.type.get_canonical()
        inner = [ch for ch in cur.get_children() if ch.kind.is_expression()][-1]
        kind = target.kind.name
        source_kind = floats.kind_of(_strip(inner, self.K).type)
        if kind in floats.FLOAT_KINDS or source_kind in floats.FLOAT_KINDS:
            value = self.expr(_strip(inner, self.K))
            if _is_unsigned(_strip(inner, self.K)) and kind in floats.FLOAT_KINDS:
                value = self.observed(value, inner)
            converted = floats.convert(value, source_kind, kind) if kind != source_kind else value
            return self.store(converted, target, cur) if kind not in floats.FLOAT_KINDS else converted
        if kind == "BOOL":
            return Binary(BinOp.NE, self.expr(inner), IntLit(0), self.span(cur))
        if kind in _NARROW:  # C truncates what does not fit: `(unsigned char)300` is 44
            return self.store(self.expr(inner), target, cur)
        # the type before Clang's implicit conversions: in `(unsigned)n` the operand is an
        # implicit int -> unsigned conversion of n, whose type is already the target's
        operand = _strip(inner, self.K)
        source = operand.type.get_canonical().kind.name
        if kind in _SIGNED and (source in _SIGNED or source in _UNSIGNED or source == "BOOL"):
            return self.expr(inner)
        if kind in _UNSIGNED and (source in _UNSIGNED or source == "BOOL"):
            return self.converted(cur, inner)
        if kind in _UNSIGNED and source in _SIGNED:
            return self.expr(inner)  # the identity modulo 2^w; checked where it is read
        raise self.unsupported(
            f"cast from '{operand.type.spelling}' to '{cur.type.spelling}'", cur, TYPES_HINT
        )

    def builtin(self, cur: Any) -> Term:
        children = list(cur.get_children())
        base = _strip(children[0], self.K) if children else None
        if base is None or base.kind != self.K.DECL_REF_EXPR or not _is_prelude(base.referenced):
            return self.member(cur)
        name, member = base.spelling, cur.spelling
        term = builtin(name, member, self.span(base))
        if term is None:
            raise self.unsupported(f"'{name}.{member}'", base, BUILTIN_HINT)
        return term

    def constant(self, cur: Any) -> int:
        value = clang.constant_value(cur)
        if value is None:
            raise self.unsupported("this constant (not an integer Clang can compute)", cur)
        return value


# operators that keep values that are not negative so
# the ranges of the integer types narrower than int (C stores a value there only if it fits)
_NARROW = {
    "CHAR_S": (-128, 127),
    "SCHAR": (-128, 127),
    "CHAR_U": (0, 255),
    "UCHAR": (0, 255),
    "SHORT": (-32768, 32767),
    "USHORT": (0, 65535),
}
_NONNEG_OPS = (BinOp.ADD, BinOp.MUL, BinOp.DIV, BinOp.MOD, BinOp.SHL, BinOp.SHR, BinOp.BOR, BinOp.BXOR)
_OPS_HINT = "supported operators: + - * / % << >> & | ^ ~ < <= > >= == != && || ! ?:"


# C's integer conversion ranks (C11 6.3.1.1) and the usual arithmetic conversions (6.3.1.8),
# for the computation type of a compound assignment, which libclang does not expose.
_RANK = {"BOOL": 0, "CHAR_S": 1, "SCHAR": 1, "CHAR_U": 1, "UCHAR": 1, "SHORT": 2, "USHORT": 2}
_RANK |= {"INT": 3, "UINT": 3, "LONG": 4, "ULONG": 4, "LONGLONG": 5, "ULONGLONG": 5}
_WIDTH = {3: 32, 4: 64, 5: 64}
_TO_UNSIGNED = {"INT": "UINT", "LONG": "ULONG", "LONGLONG": "ULONGLONG"}


def promoted(kind: str) -> str:
    """Integer promotion: types of lower rank than int compute as int (their values fit)."""
    return "INT" if _RANK.get(kind, 3) < 3 else kind


def computation_kind(a: str, b: str) -> str:
    """The type C computes `a op b` in (for integer kinds a and b)."""
    a, b = promoted(a), promoted(b)
    if a == b or a not in _RANK or b not in _RANK:
        return a
    if (a in _UNSIGNED) == (b in _UNSIGNED):
        return a if _RANK[a] >= _RANK[b] else b
    u, s = (a, b) if a in _UNSIGNED else (b, a)
    if _RANK[u] >= _RANK[s]:
        return u
    if _WIDTH[_RANK[s]] > _WIDTH[_RANK[u]]:
        return s  # the signed type holds every value of the unsigned one
    return _TO_UNSIGNED[s]


def _is_unsigned(cur: Any) -> bool:
    return bool(cur.type.get_canonical().kind.name in _UNSIGNED)


def _width(cur: Any) -> int:
    """Bits of an integer type (what matters: 64 or less)."""
    return _WIDTH.get(_RANK.get(cur.type.get_canonical().kind.name, 3), 32)


def _strip(cur: Any, K: Any) -> Any:
    while cur.kind in (K.UNEXPOSED_EXPR, K.PAREN_EXPR):
        children = list(cur.get_children())
        if len(children) != 1:
            break
        cur = children[0]
    return cur


def _is_prelude(cur: Any) -> bool:
    if cur is None or cur.location.file is None:
        return False
    return bool(cur.location.file.name == clang.PRELUDE_PATH)
