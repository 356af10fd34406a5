"""Calls the front end does not inline (issue 9, items 4 and 6): functions declared without a
body, atomics, and CUDA's integer intrinsics.

- A `__device__` function declared without a body anywhere in the file (`__device__ int
  nondet(void);`) is taken as *any* function: each call returns an arbitrary value (fresh per
  call and per thread, in the range of its type), writes no memory except through its pointer
  arguments, and may change what those point to arbitrarily (the whole array: a pointer to
  `a[i]` reaches every cell of `a`); a pointer to const is only read. Sound for proofs, since
  every implementation is one of these behaviours; a refutation holds for some
  implementation, and a warning names the assumption once per function
  ([declared-only]). The prelude's `__hoaregpu_arbitrary_*()` are such functions without
  pointers, the unknown values of the stand-in `curand_kernel.h`, and warn of nothing.
- `atomicAdd(&a[i], v)` (also `a + i`, `a`, `&x`) and the other atomics: a `CallStmt` whose
  meaning is `hoaregpu.atomics` (verifier: `hoaregpu.vc.atomic`; interpreters:
  `hoaregpu.interp.calls`).
- `__mul24`/`__umul24` (the product, with the check that each operand fits in 24 bits, as a
  `narrowing` check: C uses only the low 24 bits), `min`/`max`/`abs` on integers,
  `__threadfence()`/`__threadfence_block()` (no-ops: they order a thread's memory accesses
  as seen by other threads, which matters only to racy programs, and results assume
  race-freedom).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..atomics import BY_NAME, FLOAT_OPS, OPENCL, AtomicOp
from ..errors import SpecWarning, UnsupportedError
from ..syntax import (
    AnnotStmt,
    AssignOp,
    AssignStmt,
    AtomicCall,
    BaseType,
    CallStmt,
    Clause,
    ClauseKind,
    Decl,
    Declarator,
    Stmt,
)
from ..term_walk import subterms
from ..terms import Binary, BinOp, Conditional, Fits, IntLit, Term, Unary, UnOp, Var
from . import clang, floats
from .ckinds import NARROW, SIGNED, UNSIGNED, is_prelude, is_unsigned, strip
from .memory import MEMORY_HINT, MemoryOps

DECLARED_ONLY_TAG = "declared-only"
TEXTURE_TAG = "texture"
# memory fences (CUDA's, OpenCL's): no-ops under the race-freedom assumption (README)
FENCES = frozenset({"__threadfence", "__threadfence_block", "mem_fence", "read_mem_fence", "write_mem_fence"})
INTRINSICS = frozenset({"__mul24", "__umul24", "min", "max", "abs", "add_sat", "sub_sat"})
TEXTURE_FETCHES = frozenset({"tex1Dfetch", "tex1D", "tex2D"})
# the prelude's source of unknown values for the stand-in library headers (curand_kernel.h): a
# declared-only call without pointer arguments, so it changes no memory; not the user's
# assumption, so no [declared-only] warning
ARBITRARY = frozenset({f"__hoaregpu_arbitrary_{t}" for t in ("uint", "int", "float", "double")})
ATOMIC_HINT = "the address of an atomic is '&a[i]', 'a + i', an array's name or '&x'"
POINTER_HINT = "a pointer argument is an array's name, 'a + i', '&a[i]' or '&x'"
_WIDTHS = {"CHAR_S": 8, "SCHAR": 8, "UCHAR": 8, "CHAR_U": 8, "SHORT": 16, "USHORT": 16, "INT": 32, "UINT": 32}


@dataclass
class Calls(MemoryOps):
    warnings: list[SpecWarning] = field(default_factory=list)  # of the kernel being translated
    cond_calls: list[Stmt] = field(default_factory=list)  # of the loop condition just read

    def loop_cond_calls(self, pending: list[Stmt]) -> bool:
        """Keep the statements a loop condition needs (`while (nondet())`) if they can simply
        run again before each evaluation: calls of body-less functions that change nothing
        but their value (so where the loop head stands relative to them does not matter)."""
        if not all(
            isinstance(s, Decl)
            or (isinstance(s, CallStmt) and s.atomic is None and not s.havoc)
            or (isinstance(s, AnnotStmt) and s.call is not None)
            for s in pending
        ):
            return False
        self.cond_calls = list(pending)
        return True

    def take_cond_calls(self) -> tuple[list[Stmt], list[Stmt]]:
        """The statements a loop condition needs before the first evaluation, and again before
        each later one (the temporaries' declarations become assignments)."""
        first, self.cond_calls = self.cond_calls, []
        again: list[Stmt] = []
        for s in first:
            if isinstance(s, Decl):
                again += [
                    AssignStmt(Var(d.name, (), d.span), AssignOp.SET, d.init, d.span)
                    for d in s.declarators
                    if d.init is not None
                ]
            else:
                again.append(s)
        return first, again

    def special_call(self, cur: Any) -> tuple[list[Stmt], str | None] | None:
        """The statements of a call this module handles and the local holding its value
        (None for void), or None for a call to inline."""
        fn = cur.referenced
        if fn is None or fn.kind != self.K.FUNCTION_DECL:
            return None
        if is_prelude(fn):
            if fn.spelling in BY_NAME:
                return self.atomic(cur, BY_NAME[fn.spelling])
            if fn.spelling in OPENCL:
                return self.atomic(cur, *OPENCL[fn.spelling])
            if fn.spelling in FENCES:
                return [], None
            if fn.spelling in INTRINSICS:
                return self.intrinsic_call(cur)
            if fn.spelling in TEXTURE_FETCHES:
                return self.declared_only(cur, fn)
            if fn.spelling in ARBITRARY:
                return self.declared_only(cur, fn, warn=False)
            return None
        # a function without body: `__device__` in CUDA; any (non-kernel) function in OpenCL
        opencl = clang.is_opencl(self.tu_path)
        device = opencl or any(ch.kind == self.K.CUDADEVICE_ATTR for ch in fn.get_children())
        if fn.get_definition() is None and device:
            return self.declared_only(cur, fn)
        return None

    # ------------------------------------------------------------ intrinsics

    def intrinsic_value(self, cur: Any) -> Term | None:
        fn = cur.referenced
        if (
            fn is None
            or fn.kind != self.K.FUNCTION_DECL
            or not is_prelude(fn)
            or fn.spelling not in INTRINSICS
        ):
            return None
        span = self.span(cur)
        args = list(cur.get_arguments())
        vals = [self.expr(a) for a in args]
        name = fn.spelling
        if any(floats.is_float(a) for a in args):
            raise self.unsupported(f"'{name}' on floating-point values", cur, "use fminf/fmaxf/fabsf")
        if name in ("__mul24", "__umul24"):
            low, high = (0, 2**24 - 1) if name == "__umul24" else (-(2**23), 2**23 - 1)
            f, g = (Fits(v, low, high, self.span(arg)) for v, arg in zip(vals, args, strict=True))
            # the hardware keeps the low 32 bits of the 48-bit product: checked to lose nothing
            out_low, out_high = (0, 2**32 - 1) if name == "__umul24" else (-(2**31), 2**31 - 1)
            return Fits(Binary(BinOp.MUL, f, g, span), out_low, out_high, span)
        if name in ("add_sat", "sub_sat"):  # OpenCL: the exact sum clamped to the result type
            bounds = _range(cur.type.get_canonical().kind.name)
            assert bounds is not None  # integers: floats are rejected above
            exact = Binary(BinOp.ADD if name == "add_sat" else BinOp.SUB, vals[0], vals[1], span)
            floor, ceiling = (IntLit(b, span) for b in bounds)
            inside = Conditional(Binary(BinOp.GT, exact, ceiling, span), ceiling, exact, span)
            return Conditional(Binary(BinOp.LT, exact, floor, span), floor, inside, span)
        if name == "abs":
            (x,) = vals
            return Conditional(Binary(BinOp.LT, x, IntLit(0, span), span), Unary(UnOp.NEG, x, span), x, span)
        a, b = (self.observed(v, arg) if is_unsigned(arg) else v for v, arg in zip(vals, args, strict=True))
        return Conditional(Binary(BinOp.LT if name == "min" else BinOp.GT, a, b, span), a, b, span)

    def intrinsic_call(self, cur: Any) -> tuple[list[Stmt], str | None]:
        """An intrinsic as a statement of its own (`min(a, b);`): its operands' checks only."""
        value = self.intrinsic_value(cur)
        assert value is not None
        temp = self.fresh_temp(cur.spelling)
        span = self.span(cur)
        btype = self.base_type(cur.type.get_canonical(), cur, cur.type.spelling)
        return [Decl(False, btype, (Declarator(temp, (), value, span),), span)], temp

    # ------------------------------------------------------------ atomics

    def atomic(self, cur: Any, op: AtomicOp, implicit: int | None = None) -> tuple[list[Stmt], str | None]:
        """`op` on the cell the first argument addresses; `implicit`: the operand of a function
        that takes none (OpenCL's `atomic_inc(p)` is an add of 1)."""
        span = self.span(cur)
        args = list(cur.get_arguments())
        params = list(cur.referenced.get_arguments())
        arity = 0 if implicit is not None else op.arity
        if len(args) != 1 + arity or len(params) != len(args):
            raise self.unsupported(f"this call to '{op.value}'", cur, ATOMIC_HINT)
        target, elem = self.address(args[0], cur)
        kind = elem.get_canonical().kind.name
        written = args[0].type.get_canonical()
        if written.kind.name == "POINTER" and written.get_pointee().kind.name != kind:
            # `atomicMax((unsigned *)&a[i], v)` on an int cell: the cast reinterprets the
            # cell's bits (sign, width), which mathematical integers do not model
            raise self.unsupported(
                f"'{op.value}' through a pointer cast to '{written.spelling}' on a '{elem.spelling}' cell",
                args[0],
                "call the atomic on a pointer of the cell's own type",
            )
        floating = kind in floats.FLOAT_KINDS
        if floating and (op not in FLOAT_OPS or kind != "FLOAT"):
            raise self.unsupported(f"'{op.value}' on '{elem.spelling}'", cur, "atomicAdd/atomicExch on float")
        if not floating and kind not in SIGNED and kind not in UNSIGNED:
            raise self.unsupported(f"'{op.value}' on '{elem.spelling}'", cur, ATOMIC_HINT)
        operands = tuple(
            self.store(self.expr(a), p.type, a) for a, p in zip(args[1:], params[1:], strict=True)
        )
        if implicit is not None:
            operands = (IntLit(implicit, span),)
        bits = _WIDTHS.get(kind, 64)
        temp = self.fresh_temp(op.value)
        btype = self.base_type(elem.get_canonical(), cur, elem.spelling)
        # C evaluates the arguments before the call: at every active thread, before any
        # thread's update (lockstep). Those that read memory are kept in temporaries, so that
        # the serialised updates do not see each other's writes through them.
        before: list[Stmt] = []

        def staged(t: Term, typ: BaseType) -> Term:
            if not any(isinstance(x, Var) and (x.indices or x.name == target.name) for x in subterms(t)):
                return t
            name = self.fresh_temp(f"{op.value}.arg")
            before.append(Decl(False, typ, (Declarator(name, (), t, span),), span))
            return Var(name, (), span)

        indices = tuple(staged(i, BaseType.INT) for i in target.indices)
        operands = tuple(staged(o, btype) for o in operands)
        target = Var(target.name, indices, target.span)
        call = AtomicCall(op, target, operands, bits if kind in UNSIGNED else None, floating)
        decl = Decl(False, btype, (Declarator(temp, (), None, span),), span)
        return [*before, decl, CallStmt(op.value, temp, (), span, call)], temp

    def address(self, arg: Any, call: Any) -> tuple[Var, Any]:
        """The cell an atomic's pointer argument addresses, and its type."""
        node = strip(arg, self.K)
        if node.kind == self.K.BINARY_OPERATOR and clang.binary_operator(node) == 6:  # a + i
            left, right = node.get_children()
            if left.type.get_canonical().kind.name == "POINTER":
                base, elem = self.address(left, call)
                if not base.indices:
                    raise self.unsupported("this address", node, ATOMIC_HINT)
                first = base.indices[-1]
                step = self.expr(right)
                if is_unsigned(right):  # C zero-extends an unsigned offset, as an index
                    step = self.observed(step, right)
                offset: Term = Binary(BinOp.ADD, first, step, self.span(node))
                if isinstance(first, IntLit) and first.value == 0:
                    offset = step
                return Var(base.name, (*base.indices[:-1], offset), base.span), elem
        place = self.pointee(arg, call, ATOMIC_HINT)
        if self.record_of(place.type) is not None:
            raise self.unsupported(f"'{call.spelling}' on a struct", arg, ATOMIC_HINT)
        var = place.var
        if place.offset is not None:
            var = Var(var.name, (*var.indices, place.offset), var.span)
        return var, place.type

    # ------------------------------------------------------------ declared-only functions

    def declared_only(self, cur: Any, fn: Any, warn: bool = True) -> tuple[list[Stmt], str | None]:
        span = self.span(cur)
        name = fn.spelling
        before: list[Stmt] = []
        havoc: list[str] = []
        params = list(fn.get_arguments())
        for n, arg in enumerate(cur.get_arguments()):
            ty = arg.type.get_canonical()
            param: Any = params[n].type.get_canonical() if n < len(params) else None
            reference = param is not None and param.kind.name in ("LVALUEREFERENCE", "RVALUEREFERENCE")
            if reference and not param.get_pointee().is_const_qualified():  # `int &x`: like a pointer
                havoc += self.referenced_vars(arg)
                continue
            if ty.kind.name in ("POINTER", "CONSTANTARRAY", "INCOMPLETEARRAY"):
                havoc += self.reached(arg, cur, params[n] if n < len(params) else None)
            elif self.is_record(arg.type) and is_prelude(ty.get_declaration()):
                continue  # a texture reference: nothing to evaluate
            elif self.is_record(arg.type):
                self.struct_source(arg)  # read, and checked to be readable; nothing else
            else:  # evaluated (with its checks) though its value does not matter
                temp = self.fresh_temp(f"{name}.arg")
                btype = self.base_type(ty, arg, arg.type.spelling)
                before.append(Decl(False, btype, (Declarator(temp, (), self.expr(arg), span),), span))
        result: str | None = None
        rtype = fn.result_type.get_canonical()
        after: list[Stmt] = []
        if self.is_record(rtype):
            result = self.fresh_temp(f"{name}.result")
            before += self.struct_decls(result, False, (), rtype, fn)
            havoc += [result + leaf.suffix for leaf in self.leaves(rtype, fn, fn.result_type.spelling)]
        elif rtype.kind.name != "VOID":
            result = self.fresh_temp(f"{name}.result")
            btype = self.base_type(rtype, cur, fn.result_type.spelling)
            before.append(Decl(False, btype, (Declarator(result, (), None, span),), span))
            rng = _range(rtype.kind.name)
            if rng is not None:
                x = Var(result, (), span)
                fact = Binary(
                    BinOp.AND,
                    Binary(BinOp.LE, IntLit(rng[0], span), x, span),
                    Binary(BinOp.LE, x, IntLit(rng[1], span), span),
                    span,
                )
                after.append(AnnotStmt(Clause(ClauseKind.ASSUME, fact, span), span, call=name))
        warning = self.declared_only_warning(fn, cur) if warn else None
        if warning is not None and all(
            w.message != warning.message for w in self.warnings
        ):  # once per function
            self.warnings.append(warning)
        return [*before, CallStmt(name, result, tuple(havoc), span), *after], result

    def declared_only_warning(self, fn: Any, call: Any) -> SpecWarning:
        """The assumption about `fn`, from its declaration (the same text at every call)."""
        if is_prelude(fn):  # a texture fetch: at the (first) call, the prelude is not the user's
            return SpecWarning(
                f"'{fn.spelling}' is taken to return an arbitrary value of the texel type at each call "
                "(the texture's contents are unknown, and two fetches of one texel are not known to agree)",
                self.span(call),
                TEXTURE_TAG,
            )
        pointers = any(
            p.type.get_canonical().kind.name
            in ("POINTER", "CONSTANTARRAY", "INCOMPLETEARRAY", "LVALUEREFERENCE", "RVALUEREFERENCE")
            for p in fn.get_arguments()
        )
        does = []
        if fn.result_type.get_canonical().kind.name != "VOID":
            does.append("returns an arbitrary value (per call and thread)")
        does.append(
            "may change arbitrarily what its non-const pointer (or reference) arguments reach, "
            "and no other memory"
            if pointers
            else "changes no memory"
        )
        return SpecWarning(
            f"'{fn.spelling}' is declared without a body: each call is taken as one that "
            f"{' and '.join(does)}; proofs and failures of the caller rest on that assumption",
            self.span(fn),
            DECLARED_ONLY_TAG,
        )

    def pointee(self, arg: Any, call: Any, hint: str) -> Any:
        """memory.py's reading of a pointer argument, with this module's message."""
        try:
            return self.place(arg, call, write=True)
        except UnsupportedError as e:
            if e.hint != MEMORY_HINT:
                raise
            raise self.unsupported(f"this pointer argument of '{call.spelling}'", arg, hint) from None

    def referenced_vars(self, arg: Any) -> list[str]:
        """What a call may change through a reference parameter bound to `arg` (an lvalue)."""
        target = self.lvalue(arg)
        record = self.record_of(strip(arg, self.K).type)
        if record is None:
            return [target.name]
        return [target.name + leaf.suffix for leaf in self.leaves(record, arg, self.written(arg.type))]

    def reached(self, arg: Any, call: Any, param: Any | None) -> list[str]:
        """The variables (C names; a struct's fields) a pointer argument lets a call change."""
        if param is not None:
            pt = param.type.get_canonical()
            pointee = pt.get_pointee() if pt.kind.name == "POINTER" else pt.element_type
            if pointee.is_const_qualified():
                return []
        node = strip(arg, self.K)
        while node.kind in (self.K.CSTYLE_CAST_EXPR, self.K.CXX_STATIC_CAST_EXPR) or (
            node.kind == self.K.BINARY_OPERATOR and clang.binary_operator(node) in (6, 7)
        ):
            node = strip(next(ch for ch in node.get_children() if ch.kind.is_expression()), self.K)
        if clang.constant_value(node) == 0 or node.kind in (
            self.K.CXX_NULL_PTR_LITERAL_EXPR,
            self.K.GNU_NULL_EXPR,
        ):
            return []  # a null pointer reaches nothing
        place = self.pointee(node, call, POINTER_HINT)
        record = self.record_of(place.type)
        if record is None:
            return [place.var.name]
        return [place.var.name + leaf.suffix for leaf in self.leaves(record, arg, self.written(place.type))]


def _range(kind: str) -> tuple[int, int] | None:
    """The values of a C integer type (None for floats)."""
    if kind == "BOOL":
        return 0, 1
    if kind in NARROW:
        return NARROW[kind]
    if kind in UNSIGNED:
        return 0, 2 ** _WIDTHS.get(kind, 64) - 1
    if kind in SIGNED:
        w = _WIDTHS.get(kind, 64)
        return -(2 ** (w - 1)), 2 ** (w - 1) - 1
    return None
