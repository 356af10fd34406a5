"""Clang's statements → the surface AST of `hoaregpu.syntax` (what `hoaregpu.lower` takes;
the file's declarations, kernels and contracts are `toplevel.py`'s).

Clang has already checked the C: names, types, scopes, macros. Here each construct the
verifier understands is translated, and every other one is an UnsupportedError that names
it at its position. Annotation comments are attached by position: a clause belongs to
the statement list it stands in, before the statement that follows it (see
`hoaregpu.parser.placement` for where each kind of clause may stand).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..core import ExitKind
from ..errors import Span, SpecError
from ..parser import placement
from ..syntax import (
    AssignOp,
    AssignStmt,
    Block,
    Clause,
    Decl,
    Declarator,
    EmptyStmt,
    ExitStmt,
    ForStmt,
    IfStmt,
    IncDec,
    Stmt,
    SyncStmt,
    WhileStmt,
)
from ..term_walk import subterms
from ..terms import Binary, Fits, IntLit, Term, Unsigned
from . import clang, floats
from .ckinds import (
    ASSIGN,
    COMPOUND,
    POST_DEC,
    POST_INC,
    PRE_DEC,
    PRE_INC,
    UNSIGNED,
    computation_kind,
    is_prelude,
    promoted,
    strip,
)
from .groups import Groups


@dataclass
class Translator(Groups):
    # ------------------------------------------------------------ statements

    def stmt(self, cur: Any) -> Stmt:
        """One statement, after the statements its expressions need first (inlined calls)."""
        outer, self.pending = self.pending, []
        try:
            s = self.statement(cur)
            before = self.pending
        finally:
            self.pending = outer
        return Block((*before, s), self.span(cur), scoped=False) if before else s

    def statement(self, cur: Any) -> Stmt:
        k = cur.kind
        K = self.K
        if k == K.COMPOUND_STMT:
            return Block(tuple(self.stmt_list(cur, list(cur.get_children()))), self.span(cur))
        if k == K.DECL_STMT:
            self.no_annotations(cur)
            decls = [self.aliased(self.decl(d, self.span(cur)), d) for d in cur.get_children()]
            if any(isinstance(d, Block) for d in decls):  # a struct's (aggregates.py)
                return Block(tuple(decls), self.span(cur), scoped=False)
            return self.merged([d for d in decls if isinstance(d, Decl)], cur)
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
            invariants, cond = self.loop_head(children[0])  # GPUVerify's `while (__invariant(e), c)`
            first, again = self.take_cond_calls()
            body = self.sub(cur, children, 1)
            if first:  # the condition's calls before the loop and again after each iteration
                span = self.span(cur)
                init, step = Block(tuple(first), span, scoped=False), Block(tuple(again), span, scoped=False)
                return ForStmt(init, cond, step, body, invariants, span)
            return WhileStmt(cond, body, invariants, self.span(cur))
        if k == K.FOR_STMT:
            return self.for_stmt(cur)
        if k == K.NULL_STMT:
            return EmptyStmt(self.span(cur))
        if k == K.RETURN_STMT:
            if self.inlining:
                early = self.early_return(cur)  # in an inlined function's body (inline.py)
                if early is None:
                    raise self.unsupported(
                        "'return' before the end of a device function verified through its contract",
                        cur,
                        "return once, at the end",
                    )
                return Block(tuple(early), self.span(cur), scoped=False)
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
                items.append(self.pointer_annot(self.annots[i].annot))
            pending = [i for i in pending if not c_start <= self.annots[i].start < c_end]
            items.append(self.stmt(ch))
        for i in pending:
            self.used.add(i)
            items.append(self.pointer_annot(self.annots[i].annot))
        return placement.resolve(items)

    def sub(self, parent: Any, children: Sequence[Any], index: int) -> Stmt:
        """A sub-statement of if/while/for with the annotations written right before it."""
        start = self.extent(children[index - 1])[1]
        end = self.extent(children[index])[0]
        items: list[Any] = []
        for i in self.annots_in(start, end):
            self.used.add(i)
            items.append(self.pointer_annot(self.annots[i].annot))
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
        invariants: tuple[Clause, ...] = ()
        first: list[Stmt] = []
        again: list[Stmt] = []
        for ch in children[:-1]:
            start = self.extent(ch)[0]
            self.no_annotations(ch)
            if start < semis[0]:
                init = self.stmt(ch)
            elif start < semis[1]:
                invariants, cond = self.loop_head(ch)  # GPUVerify's `__invariant(e), c`
                first, again = self.take_cond_calls()
            else:
                step = self.stmt(ch)
                if isinstance(step, Block):
                    raise self.unsupported("call in a 'for' step", ch, "call it at the end of the body")
        body_stmt = self.sub(cur, children, len(children) - 1) if len(children) > 1 else self.stmt(body)
        if first:  # calls in the condition (calls.py): before it, at every evaluation
            span = self.span(cur)
            init = Block((*([init] if init is not None else []), *first), span, scoped=False)
            step = Block((*([step] if step is not None else []), *again), span, scoped=False)
        return ForStmt(init, cond, step, body_stmt, invariants, span=self.span(cur))

    def decl(self, cur: Any, stmt_span: Span) -> Decl | Block:
        K = self.K
        if cur.kind != K.VAR_DECL:
            raise self.unsupported(f"local declaration of kind {cur.kind.name.lower()}", cur)
        children = list(cur.get_children())
        shared = any(ch.kind == K.CUDASHARED_ATTR for ch in children) or self.is_local_var(cur)  # opencl.py
        self.check_kernel_scope_constant(cur)
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
        group = self.group_decl(cur, stmt_span)  # `grid_group g = this_grid();` (groups.py)
        if group is not None:
            return group
        if ty.kind == TK.POINTER:
            return self.pointer_decl(cur, shared, len(sizes))  # pointers.py
        exprs = [ch for ch in children if ch.kind.is_expression()]
        if ty.kind == TK.RECORD:  # an initialiser is struct-typed, an array's extent is not
            init_cur = exprs[-1] if exprs and self.record_of(exprs[-1].type) is not None else None
            return self.struct_decl(cur, shared, tuple(sizes), ty, init_cur)
        btype = self.base_type(ty, cur, cur.type.spelling)
        init: Term | None = None
        if (
            exprs
            and not sizes
            and cur.type.get_canonical().kind not in (TK.INCOMPLETEARRAY, TK.CONSTANTARRAY)
        ):
            init = self.stored(exprs[-1], cur)
        elif exprs and exprs[-1].kind == K.INIT_LIST_EXPR:
            raise self.unsupported("array initialisers '{...}'", exprs[-1])
        if shared and init is not None:
            raise SpecError("a '__shared__' variable cannot have an initialiser", self.span(cur))
        d = Declarator(cur.spelling, tuple(sizes), init, self.span(cur))
        return Decl(shared, btype, (d,), stmt_span)

    def aliased(self, d: Decl | Block, cur: Any) -> Decl | Block:
        """A declaration, then the alias of its memory if a pointer may point into it (pointers.py)."""
        extra = self.after_decl(cur)
        return Block((d, *extra), d.span, scoped=False) if extra else d

    def merged(self, decls: list[Decl], cur: Any) -> Decl:
        """`int x, y;` is one declaration with two declarators (a Block would scope x and y
        to itself, and they would be unknown after it)."""
        first = decls[0]
        if any((d.shared, d.type) != (first.shared, first.type) for d in decls):
            raise self.unsupported("declarators of different types in one declaration", cur)
        return Decl(first.shared, first.type, tuple(x for d in decls for x in d.declarators), first.span)

    def compound(
        self, cur: Any, target: Any, op: AssignOp, value: Term, value_type: Any, value_cur: Any
    ) -> AssignStmt:
        """`x op= e` (`x++` is `x += 1`, with `value_type` None for the int 1). C computes
        `x op e` in the usual arithmetic conversion of both types, then stores it into x.
        Where C reads an unsigned value as a number there (dividing it, storing it into an
        unsigned x), the value is marked for its check (`hoaregpu.unsigned`) and the
        assignment is spelled out as `x = x op e`."""
        lhs = self.lvalue(target)
        own = target.type.get_canonical().kind.name
        other = "INT" if value_type is None else value_type.get_canonical().kind.name
        if own in floats.FLOAT_KINDS or other in floats.FLOAT_KINDS:  # frontend/floats.py
            stored = floats.compound(op, lhs, own, value, other, self.span(cur))
            return AssignStmt(lhs, AssignOp.SET, self.store(stored, target.type, cur), self.span(cur))
        shift = op in (AssignOp.SHL, AssignOp.SHR)
        computed = promoted(own) if shift else computation_kind(own, other)
        operand: Term = lhs
        if computed in UNSIGNED and op in (AssignOp.DIV, AssignOp.MOD, AssignOp.SHR):
            operand = self.observed(lhs, target)
            if not shift and value_cur is not None:
                value = self.observed(value, value_cur)
        result: Term = Binary(op.binop, operand, value, self.span(cur))
        result = self.store(result, target.type, cur)  # stored back into x
        if operand is lhs and not isinstance(result, Unsigned | Fits) and not _has_mark(value):
            return AssignStmt(lhs, op, value, self.span(cur))  # nothing to check: keep `x op= e`
        return AssignStmt(lhs, AssignOp.SET, result, self.span(cur))

    def loop_cond(self, cur: Any) -> Term:
        term = self.cond(cur)
        if self.pending and self.loop_cond_calls(self.pending):  # calls.py: `while (nondet())`
            self.pending.clear()
        if self.pending:
            raise self.unsupported(
                "call in a loop condition", cur, "call it before the loop and at the end of the body"
            )
        return term

    def stored(self, value: Any, target: Any) -> Term:
        """The value of an assignment or initialisation: stored into an unsigned variable,
        C keeps it modulo 2^w, so it must not be negative (a mark for its check)."""
        return self.store(self.expr(value), target.type, value)

    def simple(self, cur: Any) -> Stmt:
        """An expression statement: an assignment, `x++`, or `__syncthreads()`."""
        K = self.K
        cur = strip(cur, K)
        pointed = self.pointer_stmt(cur)  # pointers.py: `p = e`, `p++`, writes through several targets
        if pointed is not None:
            return pointed
        if cur.kind == K.CALL_EXPR and cur.spelling == "operator=" and self.is_record(cur.type):
            # C++'s implicit copy assignment of a struct (aggregates.py rejects user-defined ones)
            target, _, value = cur.get_children()
            return self.assign_struct(target, value, cur)
        if cur.kind == K.CALL_EXPR and self.is_memory_call(cur):
            return self.memory_call(cur)
        if cur.kind == K.BINARY_OPERATOR and clang.binary_operator(cur) == ASSIGN:
            target, value = cur.get_children()
            if self.is_record(target.type):
                return self.assign_struct(target, value, cur)
            return AssignStmt(self.lvalue(target), AssignOp.SET, self.stored(value, target), self.span(cur))
        if cur.kind == K.COMPOUND_ASSIGNMENT_OPERATOR:
            op = clang.binary_operator(cur)
            target, value = cur.get_children()
            return self.compound(cur, target, COMPOUND[op], self.expr(value), value.type, value)
        if cur.kind == K.UNARY_OPERATOR and clang.unary_operator(cur) in (
            POST_INC,
            POST_DEC,
            PRE_INC,
            PRE_DEC,
        ):
            op = clang.unary_operator(cur)
            (target,) = cur.get_children()
            up = op in (POST_INC, PRE_INC)
            checked = self.compound(cur, target, AssignOp.ADD if up else AssignOp.SUB, IntLit(1), None, None)
            if isinstance(checked, AssignStmt) and checked.op is AssignOp.SET:
                return checked
            return IncDec(self.lvalue(target), 1 if up else -1, self.span(cur))
        if cur.kind == K.CALL_EXPR:
            dialect = self.dialect_stmt(cur)  # GPUVerify's `__assert(e);` ...
            if dialect is not None:
                return dialect
            if cur.spelling == "__syncthreads" and is_prelude(cur.referenced):
                return SyncStmt(self.span(cur))
            group = self.group_stmt(cur)  # `g.sync();` of a cooperative group (groups.py)
            if group is not None:
                return group
            barrier = self.barrier(cur)  # OpenCL's `barrier(flags);` (opencl.py)
            if barrier is not None:
                return barrier
            stmts, _ = self.inline(cur)
            return Block(tuple(stmts), self.span(cur), scoped=False)
        if cur.kind == K.BINARY_OPERATOR and clang.binary_operator(cur) == 33:
            raise self.unsupported("comma operator", cur, "write separate statements")
        raise self.unsupported(
            "expression statement", cur, "statements are assignments, '++'/'--' and '__syncthreads();'"
        )


def _has_mark(t: Term) -> bool:
    return any(isinstance(x, Unsigned | Fits) for x in subterms(t))
