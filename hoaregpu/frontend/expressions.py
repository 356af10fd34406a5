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
from ..syntax import BaseType, Stmt
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
from .ckinds import (
    ASSIGN,
    BINARY,
    BINARY_UNSUPPORTED,
    BITWISE,
    BNOT,
    LNOT,
    MINUS,
    NARROW,
    PLUS,
    SIGNED,
    UNARY_UNSUPPORTED,
    UNSIGNED,
    is_prelude,
    is_unsigned,
    strip,
    width,
)

TYPES_HINT = (
    "supported types: bool and the integer types (char, short, int, long, their unsigned variants, size_t),"
    " all read as mathematical integers, and float/double as opaque values;"
    " arrays and pointer parameters of them; structs of them"
)
BUILTIN_HINT = "the built-in variables are threadIdx, blockIdx, blockDim and gridDim with .x, .y, .z"


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
    # the spans of the calls being inlined, innermost last (inline.py; a call inside a stand-in
    # header has its user's call's span): where a stand-in library's body is reported
    call_sites: list[Span] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.ci = clang.cindex()
        self.K = self.ci.CursorKind

    def span(self, cur: Any) -> Span:
        loc = cur.location
        if self.call_sites and loc.is_in_system_header:
            # a step of a stand-in header's function (cuRAND's): at the user's call, in the
            # user's file, not at a line of a header the user never wrote
            return self.call_sites[-1]
        # in characters: Clang's columns count bytes (wrong after a non-ASCII character)
        return Span(self.path, *self.chars.linecol(loc.offset))

    def unsupported(self, what: str, cur: Any, hint: str | None = None) -> UnsupportedError:
        return UnsupportedError(what, self.span(cur), hint)

    def base_type(self, ty: Any, cur: Any, spelling: str) -> BaseType:
        kind = ty.kind.name
        if kind == "BOOL":
            return BaseType.BOOL
        if kind in SIGNED:
            return BaseType.INT
        if kind in UNSIGNED:
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

    def pointer_expr(self, cur: Any) -> Term | None:
        """An access through a pointer variable (pointers.py); None: not one."""
        return None

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
        cur = strip(cur, self.K)
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
        pointed = self.pointer_expr(cur)  # accesses through pointer variables (pointers.py)
        if pointed is not None:
            return pointed
        if floats.is_float(cur) and k != K.ARRAY_SUBSCRIPT_EXPR:
            value = floats.constant(cur)  # `1.5f`, `(float)2`, `0` stored into a float
            if value is not None:
                return float_literal(value, span)
        if k in (K.UNEXPOSED_EXPR, K.PAREN_EXPR):
            children = list(clang.children(cur))
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
                if is_prelude(ref) and ref.spelling in ("tid", "ntid"):
                    # the paper's names, declared by the prelude (a C variable may shadow them)
                    return ThreadId(span) if ref.spelling == "tid" else ThreadCount(span)
                if is_prelude(ref) and ref.spelling == "warpSize":
                    return IntLit(32, span)  # every NVIDIA GPU so far (README, "Calls and intrinsics")
                if is_prelude(ref):
                    raise self.unsupported(f"'{cur.spelling}'", cur, BUILTIN_HINT)
                return self.global_ref(cur, ref)
            return Var(cur.spelling, (), span)
        if k == K.ARRAY_SUBSCRIPT_EXPR:
            base, index = clang.children(cur)
            target = self.expr(base)
            if not isinstance(target, Var):
                raise self.unsupported("indexing this expression", cur)
            # C zero-extends an unsigned index: a wrapped one reaches far away
            idx = self.observed(self.expr(index), index) if is_unsigned(index) else self.expr(index)
            return Var(target.name, (*target.indices, idx), target.span or span)
        if k == K.MEMBER_REF_EXPR:
            return self.builtin(cur)
        if k == K.BINARY_OPERATOR:
            op = clang.binary_operator(cur)
            if op in BINARY and floats.is_float(clang.children(cur)[0]):
                left, right = clang.children(cur)
                kind = floats.kind_of(cur.type)
                return floats.binary(BINARY[op], self.expr(left), self.expr(right), kind, cur, span)
            if op in BINARY:
                left, right = clang.children(cur)
                bop = BINARY[op]
                a = self.expr(left)
                # C evaluates the right of && and || only sometimes: no call may be hoisted from it
                b = self.guarded_expr(right) if bop in (BinOp.AND, BinOp.OR) else self.expr(right)
                # where C reads an unsigned value as a number, it must not have wrapped
                if (bop.is_comparison or bop in (BinOp.DIV, BinOp.MOD)) and is_unsigned(left):
                    a, b = self.observed(a, left), self.observed(b, right)
                elif bop is BinOp.SHR and is_unsigned(left):
                    a = self.observed(a, left)
                elif bop in BITWISE:
                    a, b = self.bit_operand(a, left), self.bit_operand(b, right)
                return Binary(bop, a, b, span)
            if op == ASSIGN:
                raise self.unsupported("assignment inside an expression", cur)
            raise self.unsupported(f"operator '{BINARY_UNSUPPORTED.get(op, '?')}'", cur, _OPS_HINT)
        if k == K.COMPOUND_ASSIGNMENT_OPERATOR:
            raise self.unsupported("assignment inside an expression", cur)
        if k == K.UNARY_OPERATOR:
            op = clang.unary_operator(cur)
            (operand,) = clang.children(cur)
            if op == MINUS:
                neg = UnOp.FNEG if floats.is_float(operand) else UnOp.NEG
                return Unary(neg, self.expr(operand), span)
            if op == LNOT:
                return Unary(UnOp.NOT, self.expr(operand), span)
            if op == PLUS:
                return self.expr(operand)
            if op == BNOT:
                # two's complement: ~x = x ^ -1 (= -x - 1); in an unsigned type of w bits the
                # result is x ^ (2^w - 1) (= 2^w - 1 - x), which keeps it in range
                ones = 2 ** width(cur) - 1 if is_unsigned(cur) else -1
                return Binary(BinOp.BXOR, self.expr(operand), IntLit(ones, span), span)
            if op in UNARY_UNSUPPORTED:
                raise self.unsupported(UNARY_UNSUPPORTED[op], cur, _OPS_HINT)
            raise self.unsupported(
                "'++'/'--' inside an expression", cur, "write it as a statement of its own"
            )
        if k == K.CONDITIONAL_OPERATOR:
            c, a, b = clang.children(cur)
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
                self.observed(term, operand) if is_unsigned(operand) else term, source, target
            )
        if is_unsigned(operand) and width(cur) > width(operand):
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
        if kind in NARROW:
            low, high = NARROW[kind]
            if isinstance(term, IntLit) and low <= term.value <= high:
                return term
            return Fits(term, low, high, self.span(cur))
        return self.observed(term, cur) if kind in UNSIGNED else term

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
        if strip(cur, self.K).type.get_canonical().kind.name == "BOOL":
            return Binary(BinOp.NE, term, IntLit(0), term.span)
        return term

    def cast(self, cur: Any) -> Term:
        """Casts between integer types are the identity on mathematical integers (a cast to a
        narrow type must fit, see `store`); a cast to bool is `e != 0`."""
        target = cur.type.get_canonical()
        inner = [ch for ch in clang.children(cur) if ch.kind.is_expression()][-1]
        kind = target.kind.name
        source_kind = floats.kind_of(strip(inner, self.K).type)
        if kind in floats.FLOAT_KINDS or source_kind in floats.FLOAT_KINDS:
            value = self.expr(strip(inner, self.K))
            if is_unsigned(strip(inner, self.K)) and kind in floats.FLOAT_KINDS:
                value = self.observed(value, inner)
            converted = floats.convert(value, source_kind, kind) if kind != source_kind else value
            return self.store(converted, target, cur) if kind not in floats.FLOAT_KINDS else converted
        if kind == "BOOL":
            return Binary(BinOp.NE, self.expr(inner), IntLit(0), self.span(cur))
        if kind in NARROW:  # C truncates what does not fit: `(unsigned char)300` is 44
            return self.store(self.expr(inner), target, cur)
        # the type before Clang's implicit conversions: in `(unsigned)n` the operand is an
        # implicit int -> unsigned conversion of n, whose type is already the target's
        operand = strip(inner, self.K)
        source = operand.type.get_canonical().kind.name
        if kind in SIGNED and (source in SIGNED or source in UNSIGNED or source == "BOOL"):
            return self.expr(inner)
        if kind in UNSIGNED and (source in UNSIGNED or source == "BOOL"):
            return self.converted(cur, inner)
        if kind in UNSIGNED and source in SIGNED:
            return self.expr(inner)  # the identity modulo 2^w; checked where it is read
        raise self.unsupported(
            f"cast from '{operand.type.spelling}' to '{cur.type.spelling}'", cur, TYPES_HINT
        )

    def builtin(self, cur: Any) -> Term:
        children = list(clang.children(cur))
        base = strip(children[0], self.K) if children else None
        if base is None or base.kind != self.K.DECL_REF_EXPR or not is_prelude(base.referenced):
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


# operators whose result is not negative when their operands are not (`nonneg`)
_NONNEG_OPS = (BinOp.ADD, BinOp.MUL, BinOp.DIV, BinOp.MOD, BinOp.SHL, BinOp.SHR, BinOp.BOR, BinOp.BXOR)
_OPS_HINT = "supported operators: + - * / % << >> & | ^ ~ < <= > >= == != && || ! ?:"
