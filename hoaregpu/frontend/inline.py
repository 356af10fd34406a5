"""Device functions, inlined at each call (the front end's part of issue 9, item 4).

A call `f(a, b)` to a `__device__` function defined in the file becomes, before the
statement that makes it, the arguments in fresh temporaries (`f.x.1 = a`), then a block
— f's own scope, as in C — that declares each scalar parameter from its temporary, makes
each array (pointer) parameter an alias of the array passed (which must be an array's
name), runs f's body, and ends with `f.result.2 = e` for its final `return e;`. So the
lockstep semantics of the inlined body is the call's, mask and all, and f's annotations
(loop invariants, asserts) read f's names. Not
supported (each a clear error): recursion, `return` before the end of f, calls under `&&`,
`||`, `?:` (C may not evaluate them), and calls in loop conditions and `for` steps.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core import ExitKind
from ..errors import SpecError
from ..syntax import (
    AnnotStmt,
    AssignOp,
    AssignStmt,
    Block,
    ClauseKind,
    Decl,
    Declarator,
    ExitStmt,
    Stmt,
)
from ..terms import RESULT, Term, Var
from . import clang
from .annotations import PlacedAnnot
from .calls import Calls
from .contracts import Contract, at_call
from .pointer_analysis import decl_id
from .pointers import PtrVal

MAX_INLINE_DEPTH = 32


@dataclass
class Inliner(Calls):
    annots: list[PlacedAnnot] = field(default_factory=list)  # in source order
    used: set[int] = field(default_factory=set)  # indices of annotations attached so far
    inline_stack: list[str] = field(default_factory=list)  # functions being inlined, outermost first
    contracts: dict[str, Contract] = field(default_factory=dict)  # device functions with a contract
    inlined: list[Any] = field(default_factory=list)  # definitions inlined into the kernel
    # per function being inlined (innermost last): its name, result local and result type,
    # for a `return e;` before the end of its body (`result = e`, then an early exit)
    return_targets: list[tuple[str, str | None, Any]] = field(default_factory=list)

    def __post_init__(self) -> None:
        super().__post_init__()
        self.starts = [a.start for a in self.annots]

    def stmt_list(self, parent: Any, children: Sequence[Any]) -> list[Stmt]:
        raise NotImplementedError  # translate.Translator

    def contract_calls(
        self, children: Sequence[Any], result: str | None, entry: dict[str, str] | None = None
    ) -> tuple[list[Any], list[Any], list[Any]]:
        return [], [], list(children)  # gpuverify.Dialect

    def push_function_wide(self, children: Sequence[Any]) -> list[Any]:
        return list(children)  # gpuverify.Dialect: takes the body's function-wide invariants

    def pop_function_wide(self) -> None:
        pass  # gpuverify.Dialect

    def extent(self, cur: Any) -> tuple[int, int]:
        a, b = clang.offsets(cur)
        return self.chars(a), self.chars(b)

    def annots_in(self, start: int, end: int) -> list[int]:
        """Indices of the annotations not attached yet that start in [start, end)."""
        return [i for i in self.annots_between(start, end) if i not in self.used]

    def annots_between(self, start: int, end: int) -> range:
        return range(bisect_left(self.starts, start), bisect_left(self.starts, end))

    @property
    def inlining(self) -> bool:
        return bool(self.inline_stack)

    def fresh(self, base: str) -> str:
        """A local name no C identifier can be (it holds dots)."""
        self.fresh_count += 1
        return f"{self.inline_stack[-1]}.{base}.{self.fresh_count}"

    def call_value(self, cur: Any) -> Term:
        value = self.intrinsic_value(cur)  # calls.py: __mul24, min, ...
        if value is not None:
            return value
        stmts, result = self.inline(cur)
        if result is None:
            raise self.unsupported(f"the value of '{cur.spelling}', which returns nothing", cur)
        self.pending.extend(stmts)
        return Var(result, (), self.span(cur))

    def inline(self, cur: Any) -> tuple[list[Stmt], str | None]:
        """The statements of the call `cur` and the local holding its value (None for void)."""
        special = self.special_call(cur)  # calls.py: atomics, declared-only functions, ...
        if special is not None:
            return special
        fn = cur.referenced
        body = self._definition(cur, fn)
        if len(self.inline_stack) >= MAX_INLINE_DEPTH:
            raise self.unsupported(f"calls nested deeper than {MAX_INLINE_DEPTH}", cur)
        span = self.span(cur)
        params, args = list(fn.get_definition().get_arguments()), list(cur.get_arguments())
        # in the caller (a struct by value is read by `copy`, below, still in the caller)
        values: list[tuple[Any, Any, Any]] = [
            (p, self.argument(p, a), a) for p, a in zip(params, args, strict=True)
        ]
        self.inlined.append(fn.get_definition())
        self.inline_stack.append(fn.spelling)
        self.call_sites.append(span)
        self.push_pointer_frame(  # pointers.py: what the callee's pointers may point into
            fn.get_definition(),
            {decl_id(p): frozenset(v.targets) for p, v, _ in values if isinstance(v, PtrVal)},
        )
        # the kernel's parameters are not in scope in f: its names may be f's own
        saved_params, self.unsigned_params = self.unsigned_params, frozenset()
        saved_used = self.used
        inside = set(self.annots_between(*self.extent(body)))
        self.used = saved_used - inside  # each inlining attaches the body's annotations anew
        try:
            before: list[Stmt] = []  # in the caller's scope: the value and the arguments
            entry: list[Stmt] = []  # in the body's scope: the parameters
            names: dict[str, str] = {}  # each parameter's name in the caller (for a contract)
            result = None
            if self.is_record(fn.result_type):
                result = self.fresh("result")
                before += self.struct_decls(result, False, (), fn.result_type, fn)
            elif fn.result_type.get_canonical().kind.name not in ("VOID", "POINTER"):
                result = self.fresh("result")
                rtype = self.base_type(fn.result_type.get_canonical(), fn, fn.result_type.spelling)
                before.append(Decl(False, rtype, (Declarator(result, (), None, span),), span))
            for p, value, arg in values:
                if isinstance(value, PtrVal):
                    self.check_constant_argument(p, arg)
                    through_contract = fn.spelling in self.contracts
                    before_p, entry_p = self.pointer_argument(p, value, arg, through_contract, names)
                    before += before_p
                    entry += entry_p
                    continue
                if self.is_record(p.type):  # a struct by value: field by field through temporaries
                    temp = self.fresh(p.spelling)
                    before += self.struct_decls(temp, False, (), p.type, p)
                    before += self.copy(Var(temp, (), span), p.type, value, arg)
                    entry += self.struct_decls(p.spelling, False, (), p.type, p)
                    entry += self.copy(
                        Var(p.spelling, (), span), p.type, self.struct_source_var(temp, span), arg
                    )
                    names.update(
                        {
                            p.spelling + leaf.suffix: temp + leaf.suffix
                            for leaf in self.leaves(p.type, p, p.type.spelling)
                        }
                    )
                    continue
                # through a temporary, so that `f(b, a)` for `f(int a, int b)` reads the caller's a
                ptype = self.base_type(p.type.get_canonical(), p, p.type.spelling)
                value = self.store(value, p.type, arg)
                temp = self.fresh(p.spelling)
                names[p.spelling] = temp
                before.append(Decl(False, ptype, (Declarator(temp, (), value, span),), span))
                entry.append(
                    Decl(False, ptype, (Declarator(p.spelling, (), Var(temp, (), span), span),), span)
                )
            entry += self.global_aliases(self.ptr_frames[-1])
            # GPUVerify's `__requires`/`__ensures` calls leading the body: checked at the call
            # (`names`: a scalar parameter's value at entry, for their __ensures)
            gv_pre, gv_post, children = self.contract_calls(list(body.get_children()), result, names)
            children = self.push_function_wide(children)
            last = children[-1] if children and children[-1].kind == self.K.RETURN_STMT else None
            self.return_targets.append((fn.spelling, result, fn.result_type))
            try:
                own = self.stmt_list(body, children[:-1] if last is not None else children)
            finally:
                self.return_targets.pop()
                self.pop_function_wide()
            if last is not None:
                own += self._return(last, result, fn.result_type)
            # a `return` before the end ends this body only (lowering gives it a flag of its
            # own, hoaregpu.early_exit); the GPUVerify `__ensures` checks after it run for all
            stmts = [*gv_pre, Block(tuple(own), span, returns=True), *gv_post]
            contract = self.contracts.get(fn.spelling)
            if contract is None:
                return [*before, Block((*entry, *stmts), span)], result
            if result is not None:
                names[RESULT] = result
            if result is not None and self.is_record(fn.result_type):  # `\result.x`
                leaves = self.leaves(fn.result_type, fn, fn.result_type.spelling)
                names.update({RESULT + leaf.suffix: result + leaf.suffix for leaf in leaves})
            pre = [
                AnnotStmt(at_call(c, names, ClauseKind.ASSERT, span), span, call=fn.spelling)
                for c in contract.requires
            ]
            post = [
                AnnotStmt(at_call(c, names, ClauseKind.ASSUME, span), span, call=fn.spelling)
                for c in contract.ensures
            ]
            body_block = Block((*entry, *stmts), span, contract_call=fn.spelling)
            return [*before, *pre, body_block, *post], result
        finally:
            self.ptr_frames.pop()
            self.inline_stack.pop()
            self.call_sites.pop()
            self.unsigned_params = saved_params
            self.used = saved_used | inside

    def _definition(self, cur: Any, fn: Any) -> Any:
        K = self.K
        if fn is None or fn.kind != K.FUNCTION_DECL:
            raise self.call(cur)
        if fn.spelling in self.inline_stack:
            raise SpecError(
                f"recursive call to '{fn.spelling}': device functions are inlined, so they cannot recurse",
                self.span(cur),
            )
        definition = fn.get_definition()
        body = (
            None
            if definition is None
            else next((ch for ch in definition.get_children() if ch.kind == K.COMPOUND_STMT), None)
        )
        if body is None or any(ch.kind == K.CUDAGLOBAL_ATTR for ch in definition.get_children()):
            raise self.call(cur)  # builtins, declared-only functions, kernels
        if clang.is_opencl_kernel(definition):  # an OpenCL kernel called as a function
            raise self.call(cur)  # builtins, declared-only functions, kernels
        return body

    def early_return(self, ret: Any) -> list[Stmt] | None:
        """`return e;` before the end of the function being inlined: `result = e` and an
        early exit of its body (None when no function is being inlined here: a device
        function verified on its own through its contract)."""
        if not self.return_targets or self.return_targets[-1][0] != self.inline_stack[-1]:
            return None
        _, result, result_type = self.return_targets[-1]
        return [*self._return(ret, result, result_type), ExitStmt(ExitKind.RETURN, self.span(ret))]

    def _return(self, ret: Any, result: str | None, result_type: Any) -> list[Stmt]:
        """The final `return e;` of an inlined body: `result = e` (after what e needs)."""
        values = list(ret.get_children())
        if not values:
            return []
        if result is None:  # a pointer, which no caller may use (pointers.py)
            if any(n.kind == self.K.CALL_EXPR for n in ret.walk_preorder()):
                raise self.unsupported("a call in the 'return' of a pointer", ret)
            return []
        assert result is not None
        if self.is_record(result_type):
            return self._return_struct(ret, result, result_type)
        outer, self.pending = self.pending, []
        try:
            value = self.expr(values[0])
            value = self.store(value, result_type, values[0])
            before = self.pending
        finally:
            self.pending = outer
        span = self.span(ret)
        return [*before, AssignStmt(Var(result, (), span), AssignOp.SET, value, span)]

    def _return_struct(self, ret: Any, result: str, result_type: Any) -> list[Stmt]:
        (value,) = [ch for ch in ret.get_children() if ch.kind.is_expression()]
        outer, self.pending = self.pending, []
        try:
            stmts = self.copy(Var(result, (), self.span(ret)), result_type, self.struct_source(value), ret)
            before = self.pending
        finally:
            self.pending = outer
        return [*before, *stmts]
