"""Clang's AST → the surface AST of `hoaregpu.syntax` (what `hoaregpu.lower` takes).

Clang has already checked the C: names, types, scopes, macros. Here each construct the
verifier understands is translated, and every other one is an UnsupportedError that names
it at its position. Annotation comments are attached by position: a clause belongs to
the statement list it stands in, before the statement that follows it (see
`hoaregpu.parser.placement` for where each kind of clause may stand).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core import ExitKind
from ..errors import Span, SpecError, UnsupportedError
from ..parser import placement
from ..syntax import (
    AssignOp,
    AssignStmt,
    BaseType,
    Block,
    Decl,
    Declarator,
    EmptyStmt,
    ExitStmt,
    ForStmt,
    IfStmt,
    IncDec,
    KernelDef,
    Param,
    Stmt,
    SyncStmt,
    WhileStmt,
)
from ..terms import Binary, BinOp, Conditional, IntLit, Term, ThreadCount, ThreadId, Unary, UnOp, Var
from . import clang
from .annotations import PlacedAnnot

TYPES_HINT = (
    "supported types: bool and the integer types (char, short, int, long, their unsigned variants, size_t),"
    " all read as mathematical integers; arrays and pointer parameters of them"
)
ONE_BLOCK_HINT = "one block, one dimension: use threadIdx.x and blockDim.x"

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
    20: BinOp.AND,
    21: BinOp.OR,
}
_BINARY_UNSUPPORTED = {1: ".*", 2: "->*", 10: "<=>", 17: "&", 18: "^", 19: "|", 33: ","}
_ASSIGN = 22
_COMPOUND = {
    23: AssignOp.MUL,
    24: AssignOp.DIV,
    25: AssignOp.MOD,
    26: AssignOp.ADD,
    27: AssignOp.SUB,
    28: AssignOp.SHL,
    29: AssignOp.SHR,
}
_COMPOUND_UNSUPPORTED = {30: "&=", 31: "^=", 32: "|="}
_POST_INC, _POST_DEC, _PRE_INC, _PRE_DEC = 1, 2, 3, 4
_UNARY_UNSUPPORTED = {5: "address-of '&'", 6: "pointer dereference '*'", 9: "bitwise not '~'"}
_PLUS, _MINUS, _LNOT = 7, 8, 10

_SIGNED = {"INT", "LONG", "LONGLONG", "SHORT", "CHAR_S", "SCHAR", "INT128"}
_UNSIGNED = {"UINT", "ULONG", "ULONGLONG", "USHORT", "UCHAR", "CHAR_U", "UINT128"}


@dataclass
class Translator:
    tu: Any
    path: str  # as the user named the file (in messages)
    tu_path: str  # as Clang knows it
    annots: list[PlacedAnnot]
    chars: clang.CharOffsets
    used: set[int] = field(default_factory=set)  # indices of annotations attached so far

    def __post_init__(self) -> None:
        self.ci = clang.cindex()
        self.K = self.ci.CursorKind

    # ------------------------------------------------------------ positions

    def span(self, cur: Any) -> Span:
        # in characters: Clang's columns count bytes (wrong after a non-ASCII character)
        return Span(self.path, *self.chars.linecol(cur.location.offset))

    def start_span(self, cur: Any) -> Span:
        """Where the construct's text begins (a declaration's type, not its name)."""
        return Span(self.path, *self.chars.linecol(clang.offsets(cur)[0]))

    def extent(self, cur: Any) -> tuple[int, int]:
        a, b = clang.offsets(cur)
        return self.chars(a), self.chars(b)

    def annots_in(self, start: int, end: int) -> list[int]:
        return [i for i, a in enumerate(self.annots) if i not in self.used and start <= a.start < end]

    def unsupported(self, what: str, cur: Any, hint: str | None = None) -> UnsupportedError:
        return UnsupportedError(what, self.span(cur), hint)

    # ------------------------------------------------------------ kernels

    def kernels(self) -> list[KernelDef]:
        """Top-level kernels with their contracts; other declarations are not kernels and are
        left alone (host code, helpers never called)."""
        items: list[Any] = []
        previous_end = 0
        for cur in self.tu.cursor.get_children():
            if not clang.in_file(cur, self.tu_path) or cur.kind == self.K.MACRO_DEFINITION:
                continue
            if cur.kind in (self.K.MACRO_INSTANTIATION, self.K.INCLUSION_DIRECTIVE):
                continue
            start, end = self.extent(cur)
            contract = self.annots_in(previous_end, start)
            previous_end = max(previous_end, end)
            if self._is_kernel(cur):
                for i in contract:
                    self.used.add(i)
                    items.append(self.annots[i].annot)
                items.append(self.kernel(cur))
            elif contract:
                first = self.annots[contract[0]].annot
                raise (
                    placement.misplaced(first.clauses[0])
                    if first.clauses
                    else SpecError("an annotation here belongs to nothing", first.span)
                )
        for i, a in enumerate(self.annots):
            if i not in self.used and a.start >= previous_end:
                self.used.add(i)
                items.append(a.annot)
        kernels = placement.top_level(items)
        stray = [a for i, a in enumerate(self.annots) if i not in self.used and a.annot.clauses]
        if stray:
            raise SpecError(
                "annotations may not stand inside an expression or declaration", stray[0].annot.span
            )
        return kernels

    def _is_kernel(self, cur: Any) -> bool:
        if cur.kind == self.K.FUNCTION_TEMPLATE and any(
            ch.kind == self.K.CUDAGLOBAL_ATTR for ch in cur.get_children()
        ):
            raise self.unsupported("kernel templates", cur, "write the kernel for concrete types")
        if cur.kind != self.K.FUNCTION_DECL:
            return False
        if not any(ch.kind == self.K.CUDAGLOBAL_ATTR for ch in cur.get_children()):
            return False
        return bool(cur.is_definition())

    def kernel(self, cur: Any) -> KernelDef:
        params = tuple(self.param(p) for p in cur.get_arguments())
        body = next(ch for ch in cur.get_children() if ch.kind == self.K.COMPOUND_STMT)
        block = self.stmt(body)
        assert isinstance(block, Block)
        return KernelDef(cur.spelling, params, (), (), block, self.start_span(cur))

    def param(self, cur: Any) -> Param:
        ty = cur.type.get_canonical()
        dims = 0
        while ty.kind in (
            self.ci.TypeKind.POINTER,
            self.ci.TypeKind.CONSTANTARRAY,
            self.ci.TypeKind.INCOMPLETEARRAY,
        ):
            ty = ty.get_pointee() if ty.kind == self.ci.TypeKind.POINTER else ty.element_type
            ty = ty.get_canonical()
            dims += 1
        return Param(cur.spelling, self.base_type(ty, cur, cur.type.spelling), dims, self.start_span(cur))

    def base_type(self, ty: Any, cur: Any, spelling: str) -> BaseType:
        kind = ty.kind.name
        if kind == "BOOL":
            return BaseType.BOOL
        if kind in _SIGNED:
            return BaseType.INT
        if kind in _UNSIGNED:
            return BaseType.UNSIGNED
        raise self.unsupported(f"type '{spelling}'", cur, TYPES_HINT)

    # ------------------------------------------------------------ statements

    def stmt(self, cur: Any) -> Stmt:
        k = cur.kind
        K = self.K
        if k == K.COMPOUND_STMT:
            return Block(tuple(self.stmt_list(cur, list(cur.get_children()))), self.span(cur))
        if k == K.DECL_STMT:
            self.no_annotations(cur)
            decls = [self.decl(d, self.span(cur)) for d in cur.get_children()]
            return self.merged(decls, cur)
        if k == K.IF_STMT:
            children = list(cur.get_children())
            if len(children) > 3 or any(ch.kind in (K.DECL_STMT, K.VAR_DECL) for ch in children[:-1]):
                raise self.unsupported("declaration inside an 'if' condition", cur)
            self.no_annotations(children[0])
            then = self.sub(cur, children, 1)
            orelse = self.sub(cur, children, 2) if len(children) > 2 else None
            return IfStmt(self.cond(children[0]), then, orelse, self.span(cur))
        if k == K.WHILE_STMT:
            children = list(cur.get_children())
            if len(children) != 2:
                raise self.unsupported("declaration inside a 'while' condition", cur)
            self.no_annotations(children[0])
            return WhileStmt(self.cond(children[0]), self.sub(cur, children, 1), (), self.span(cur))
        if k == K.FOR_STMT:
            return self.for_stmt(cur)
        if k == K.NULL_STMT:
            return EmptyStmt(self.span(cur))
        if k == K.RETURN_STMT:
            if any(True for _ in cur.get_children()):
                raise self.unsupported("'return' with a value", cur)
            return ExitStmt(ExitKind.RETURN, self.span(cur))
        if k == K.BREAK_STMT:
            return ExitStmt(ExitKind.BREAK, self.span(cur))
        if k == K.CONTINUE_STMT:
            return ExitStmt(ExitKind.CONTINUE, self.span(cur))
        if k == K.DO_STMT:
            raise self.unsupported("'do' statement", cur, "use 'while'")
        if k in (K.SWITCH_STMT, K.CASE_STMT, K.DEFAULT_STMT):
            raise self.unsupported("'switch' statement", cur, "use 'if' / 'else'")
        if k == K.GOTO_STMT or k == K.LABEL_STMT:
            raise self.unsupported("'goto' and labels", cur)
        self.no_annotations(cur)
        return self.simple(cur)

    def stmt_list(self, parent: Any, children: Sequence[Any]) -> list[Stmt]:
        """Statements of a block with the annotations standing between them, in order."""
        items: list[Any] = []
        p_start, p_end = self.extent(parent)
        pending = self.annots_in(p_start, p_end)
        for ch in children:
            c_start, c_end = self.extent(ch)
            while pending and self.annots[pending[0]].start < c_start:
                i = pending.pop(0)
                self.used.add(i)
                items.append(self.annots[i].annot)
            pending = [i for i in pending if not c_start <= self.annots[i].start < c_end]
            items.append(self.stmt(ch))
        for i in pending:
            self.used.add(i)
            items.append(self.annots[i].annot)
        return placement.resolve(items)

    def sub(self, parent: Any, children: Sequence[Any], index: int) -> Stmt:
        """A sub-statement of if/while/for with the annotations written right before it."""
        start = self.extent(children[index - 1])[1]
        end = self.extent(children[index])[0]
        items: list[Any] = []
        for i in self.annots_in(start, end):
            self.used.add(i)
            items.append(self.annots[i].annot)
        items.append(self.stmt(children[index]))
        stmts = placement.resolve(items)
        return stmts[0] if len(stmts) == 1 else Block(tuple(stmts), self.span(children[index]))

    def no_annotations(self, cur: Any) -> None:
        start, end = self.extent(cur)
        inside = self.annots_in(start, end)
        if inside:
            a = self.annots[inside[0]]
            raise SpecError("an annotation may not stand inside an expression or declaration", a.annot.span)

    def for_stmt(self, cur: Any) -> Stmt:
        # libclang lists only the parts that are present; tell them apart by position.
        children = list(cur.get_children())
        body = children[-1]
        toks = [t for t in clang.tokens(self.tu, cur)]
        semis = [self.chars(t.extent.start.offset) for t in toks if t.spelling == ";"][:2]
        if len(semis) < 2:
            raise self.unsupported("range-based 'for'", cur)
        init = cond = step = None
        for ch in children[:-1]:
            start = self.extent(ch)[0]
            self.no_annotations(ch)
            if start < semis[0]:
                init = self.stmt(ch)
            elif start < semis[1]:
                cond = self.cond(ch)
            else:
                step = self.simple(ch)
        body_stmt = self.sub(cur, children, len(children) - 1) if len(children) > 1 else self.stmt(body)
        return ForStmt(init, cond, step, body_stmt, (), self.span(cur))

    def decl(self, cur: Any, stmt_span: Span) -> Decl:
        K = self.K
        if cur.kind != K.VAR_DECL:
            raise self.unsupported(f"local declaration of kind {cur.kind.name.lower()}", cur)
        children = list(cur.get_children())
        shared = any(ch.kind == K.CUDASHARED_ATTR for ch in children)
        if any(ch.kind == K.CUDACONSTANT_ATTR for ch in children):
            raise self.unsupported("'__constant__' variable inside a kernel", cur)
        ty = cur.type.get_canonical()
        sizes: list[Term] = []
        TK = self.ci.TypeKind
        while ty.kind in (TK.CONSTANTARRAY, TK.INCOMPLETEARRAY, TK.VARIABLEARRAY):
            if ty.kind == TK.VARIABLEARRAY:
                raise self.unsupported("variable-length array", cur)
            if ty.kind == TK.CONSTANTARRAY:
                sizes.append(IntLit(ty.get_array_size(), self.span(cur)))
            else:
                # `extern __shared__ int s[];`: the size is set at launch. Arrays are unbounded
                # maps (only the number of extents counts), so any extent stands for it.
                sizes.append(IntLit(0, self.span(cur)))
            ty = ty.element_type.get_canonical()
        if ty.kind == TK.POINTER:
            raise self.unsupported(
                "pointer variables", cur, "declare an array ('int buf[4];') or use a parameter"
            )
        btype = self.base_type(ty, cur, cur.type.spelling)
        exprs = [ch for ch in children if ch.kind.is_expression()]
        init: Term | None = None
        if (
            exprs
            and not sizes
            and cur.type.get_canonical().kind not in (TK.INCOMPLETEARRAY, TK.CONSTANTARRAY)
        ):
            init = self.expr(exprs[-1])
        elif exprs and exprs[-1].kind == K.INIT_LIST_EXPR:
            raise self.unsupported("array initialisers '{...}'", exprs[-1])
        if shared and init is not None:
            raise SpecError("a '__shared__' variable cannot have an initialiser", self.span(cur))
        d = Declarator(cur.spelling, tuple(sizes), init, self.span(cur))
        return Decl(shared, btype, (d,), stmt_span)

    def merged(self, decls: list[Decl], cur: Any) -> Decl:
        """`int x, y;` is one declaration with two declarators (a Block would scope x and y
        to itself, and they would be unknown after it)."""
        first = decls[0]
        if any((d.shared, d.type) != (first.shared, first.type) for d in decls):
            raise self.unsupported("declarators of different types in one declaration", cur)
        return Decl(first.shared, first.type, tuple(x for d in decls for x in d.declarators), first.span)

    def simple(self, cur: Any) -> Stmt:
        """An expression statement: an assignment, `x++`, or `__syncthreads()`."""
        K = self.K
        cur = _strip(cur, K)
        if cur.kind == K.BINARY_OPERATOR and clang.binary_operator(cur) == _ASSIGN:
            target, value = cur.get_children()
            return AssignStmt(self.lvalue(target), AssignOp.SET, self.expr(value), self.span(cur))
        if cur.kind == K.COMPOUND_ASSIGNMENT_OPERATOR:
            op = clang.binary_operator(cur)
            if op in _COMPOUND_UNSUPPORTED:
                raise self.unsupported(f"bitwise assignment '{_COMPOUND_UNSUPPORTED[op]}'", cur)
            target, value = cur.get_children()
            return AssignStmt(self.lvalue(target), _COMPOUND[op], self.expr(value), self.span(cur))
        if cur.kind == K.UNARY_OPERATOR and clang.unary_operator(cur) in (
            _POST_INC,
            _POST_DEC,
            _PRE_INC,
            _PRE_DEC,
        ):
            op = clang.unary_operator(cur)
            (target,) = cur.get_children()
            return IncDec(self.lvalue(target), 1 if op in (_POST_INC, _PRE_INC) else -1, self.span(cur))
        if cur.kind == K.CALL_EXPR:
            if cur.spelling == "__syncthreads" and _is_prelude(cur.referenced):
                return SyncStmt(self.span(cur))
            raise self.call(cur)
        if cur.kind == K.BINARY_OPERATOR and clang.binary_operator(cur) == 33:
            raise self.unsupported("comma operator", cur, "write separate statements")
        raise self.unsupported(
            "expression statement", cur, "statements are assignments, '++'/'--' and '__syncthreads();'"
        )

    def call(self, cur: Any) -> UnsupportedError:
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
        if k in (K.UNEXPOSED_EXPR, K.PAREN_EXPR):
            children = list(cur.get_children())
            if len(children) != 1:
                raise self.unsupported("this expression", cur)
            if k == K.UNEXPOSED_EXPR and self.signed_to_unsigned(cur, children[0]):
                return self.to_unsigned(cur, children[0])
            return self.expr(children[0])
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
                    raise self.unsupported(f"'{cur.spelling}'", cur, ONE_BLOCK_HINT)
                raise self.unsupported(f"file-scope variable '{cur.spelling}'", cur)
            return Var(cur.spelling, (), span)
        if k == K.ARRAY_SUBSCRIPT_EXPR:
            base, index = cur.get_children()
            target = self.expr(base)
            if not isinstance(target, Var):
                raise self.unsupported("indexing this expression", cur)
            return Var(target.name, (*target.indices, self.expr(index)), target.span or span)
        if k == K.MEMBER_REF_EXPR:
            return self.builtin(cur)
        if k == K.BINARY_OPERATOR:
            op = clang.binary_operator(cur)
            if op in _BINARY:
                left, right = cur.get_children()
                return Binary(_BINARY[op], self.expr(left), self.expr(right), span)
            if op == _ASSIGN:
                raise self.unsupported("assignment inside an expression", cur)
            raise self.unsupported(f"operator '{_BINARY_UNSUPPORTED.get(op, '?')}'", cur, _OPS_HINT)
        if k == K.COMPOUND_ASSIGNMENT_OPERATOR:
            raise self.unsupported("assignment inside an expression", cur)
        if k == K.UNARY_OPERATOR:
            op = clang.unary_operator(cur)
            (operand,) = cur.get_children()
            if op == _MINUS:
                if cur.type.get_canonical().kind.name in _UNSIGNED:
                    # C negates an unsigned value modulo 2^w: `-1u` is 4294967295
                    raise self.unsupported(
                        f"unary minus of an unsigned value of type '{cur.type.spelling}'",
                        cur,
                        "C wraps the result around 2^w; integers here are mathematical",
                    )
                return Unary(UnOp.NEG, self.expr(operand), span)
            if op == _LNOT:
                return Unary(UnOp.NOT, self.expr(operand), span)
            if op == _PLUS:
                return self.expr(operand)
            if op in _UNARY_UNSUPPORTED:
                raise self.unsupported(_UNARY_UNSUPPORTED[op], cur, _OPS_HINT)
            raise self.unsupported(
                "'++'/'--' inside an expression", cur, "write it as a statement of its own"
            )
        if k == K.CONDITIONAL_OPERATOR:
            c, a, b = cur.get_children()
            return Conditional(self.expr(c), self.expr(a), self.expr(b), span)
        if k in (K.CSTYLE_CAST_EXPR, K.CXX_STATIC_CAST_EXPR, K.CXX_FUNCTIONAL_CAST_EXPR):
            return self.cast(cur)
        if k == K.CALL_EXPR:
            raise self.call(cur)
        if k in (K.FLOATING_LITERAL,):
            raise self.unsupported("floating-point literal", cur, "only integer arithmetic is supported")
        raise self.unsupported(f"expression of kind {k.name.lower()}", cur)

    def signed_to_unsigned(self, cur: Any, operand: Any) -> bool:
        """Whether `cur` is Clang's implicit conversion of a signed value to an unsigned type
        (`unsigned u = -1;`, `k < blockDim.x` with `int k`)."""
        target = cur.type.get_canonical().kind.name
        source = operand.type.get_canonical().kind.name
        return target in _UNSIGNED and source in _SIGNED

    def to_unsigned(self, cur: Any, operand: Any) -> Term:
        """C converts a negative value v to unsigned as v + 2^w: `unsigned u = -1;` holds
        4294967295, and `k < -1` with an unsigned k compares with it. Integers here are
        mathematical, so a negative constant converted to unsigned is rejected. (A variable
        converted to unsigned, as in `k < blockDim.x` with `int k`, is read as the identity:
        exact when it is not negative; see README, Limitations.)"""
        if _is_constant(self.ci, operand):
            value = self.constant(operand)
            if value < 0:
                raise self.unsupported(
                    f"implicit conversion of the negative constant {value} to '{cur.type.spelling}'",
                    cur,
                    "C wraps it around 2^w (-1 becomes the largest unsigned value);"
                    " integers here are mathematical",
                )
        return self.expr(operand)

    def cast(self, cur: Any) -> Term:
        """Casts between integer types are the identity on mathematical integers; a cast to
        bool is `e != 0`."""
        target = cur.type.get_canonical()
        inner = [ch for ch in cur.get_children() if ch.kind.is_expression()][-1]
        kind = target.kind.name
        if kind == "BOOL":
            return Binary(BinOp.NE, self.expr(inner), IntLit(0), self.span(cur))
        # the type before Clang's implicit conversions: in `(unsigned)n` the operand is an
        # implicit int -> unsigned conversion of n, whose type is already the target's
        operand = _strip(inner, self.K)
        source = operand.type.get_canonical().kind.name
        if kind in _SIGNED and (source in _SIGNED or source in _UNSIGNED or source == "BOOL"):
            return self.expr(inner)
        if kind in _UNSIGNED and (source in _UNSIGNED or source == "BOOL"):
            return self.expr(inner)
        if kind in _UNSIGNED and source in _SIGNED:
            # C wraps a negative value around 2^n; with mathematical integers that would be
            # the identity, which is wrong exactly where such casts matter (bounds checks).
            raise self.unsupported(
                f"cast from '{operand.type.spelling}' to '{cur.type.spelling}'",
                cur,
                "a signed value cast to unsigned wraps around; integers here are mathematical",
            )
        raise self.unsupported(
            f"cast from '{operand.type.spelling}' to '{cur.type.spelling}'", cur, TYPES_HINT
        )

    def builtin(self, cur: Any) -> Term:
        children = list(cur.get_children())
        base = _strip(children[0], self.K) if children else None
        if base is None or base.kind != self.K.DECL_REF_EXPR or not _is_prelude(base.referenced):
            raise self.unsupported("struct member access", cur, TYPES_HINT)
        name, member = base.spelling, cur.spelling
        if name in ("threadIdx", "blockDim") and member == "x":
            return ThreadId(self.span(base)) if name == "threadIdx" else ThreadCount(self.span(base))
        raise self.unsupported(f"'{name}.{member}'", base, ONE_BLOCK_HINT)

    def constant(self, cur: Any) -> int:
        lib = self.ci.conf.lib
        result = lib.clang_Cursor_Evaluate(cur)
        if not result:
            raise self.unsupported("this constant", cur)
        try:
            if lib.clang_EvalResult_getKind(result) != 1:  # CXEval_Int
                raise self.unsupported("non-integer constant", cur)
            if lib.clang_EvalResult_isUnsignedInt(result):
                return int(lib.clang_EvalResult_getAsUnsigned(result))
            return int(lib.clang_EvalResult_getAsLongLong(result))
        finally:
            lib.clang_EvalResult_dispose(result)


_OPS_HINT = "supported operators: + - * / % << >> < <= > >= == != && || ! ?:"


def _strip(cur: Any, K: Any) -> Any:
    while cur.kind in (K.UNEXPOSED_EXPR, K.PAREN_EXPR):
        children = list(cur.get_children())
        if len(children) != 1:
            break
        cur = children[0]
    return cur


def _is_constant(ci: Any, cur: Any) -> bool:
    """Whether Clang folds the expression to an integer constant."""
    lib = ci.conf.lib
    result = lib.clang_Cursor_Evaluate(cur)
    if not result:
        return False
    try:
        return bool(lib.clang_EvalResult_getKind(result) == 1)  # CXEval_Int
    finally:
        lib.clang_EvalResult_dispose(result)


def _is_prelude(cur: Any) -> bool:
    if cur is None or cur.location.file is None:
        return False
    return bool(cur.location.file.name == clang.PRELUDE_PATH)
