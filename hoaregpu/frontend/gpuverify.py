"""GPUVerify's annotation dialect: contracts, invariants and assertions written as calls.

GPUVerify (and its front end Bugle) reads annotations from calls such as `__requires(e);`
at the start of a function body, `__invariant(e)` before a loop guard (`while (__invariant(e),
i < n)`), `__assert(e);` as a statement, with `__implies`, `__enabled()`, `__other_int(x)`,
... inside. The prelude declares them (hoaregpu_cuda.h) so that Clang accepts such kernels;
here they become our clauses. The policy for each intrinsic, and why it is sound, is the
table of docs/gpuverify-dialect.md. In short:

- a formula is translated exactly where our logic can say the same thing; `__other_int(x)`
  (GPUVerify's "the other thread" of its two-thread reduction) becomes `x @ t'` under
  `\\forall t'` ranging over the other threads of the block, at the clause level;
- a formula that cannot be translated (race intrinsics such as `__write(p)`, the other
  thread's `__enabled()`) is dropped with a warning where it is a hypothesis (`__requires`,
  `__assume`, a loop invariant: dropping one only weakens what the proof may use), and is
  an UnsupportedError where it is an obligation (`__ensures`, `__assert`): never proved;
- C's unsigned arithmetic in a formula: where C reads an unsigned value as a number (the
  program's `Unsigned` marks) the mathematical reading agrees with C's only if the value is
  not negative. Those conditions become part of an obligation (proved too) and a premise of a
  hypothesis (assumed only when they hold).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import Span, SpecError, SpecWarning, UnsupportedError
from ..syntax import AnnotStmt, Clause, ClauseKind, EmptyStmt, Stmt
from ..terms import (
    At,
    Binary,
    BinOp,
    IntLit,
    Old,
    Term,
    Unary,
    UnOp,
    Var,
)
from . import clang
from .ckinds import BINARY, LNOT, is_prelude, strip
from .gpuverify_names import (
    CONTRACT,
    INTRINSICS,
    LOOP_HEAD,
    MEMORY,
    MEMORY_HINT,
    OLD,
    OTHER,
    PAIR,
    RETURN,
    STATEMENTS,
    Position,
)
from .gpuverify_terms import (
    PLACEHOLDER,
    at_every_thread,
    for_other_threads,
    fresh_name,
    one_block_1d,
    with_c_checks,
)
from .inline import Inliner

WARNING_TAG = "gpuverify-dialect"


class _Untranslatable(Exception):
    """A formula our logic cannot state: dropped in a hypothesis, unsupported in an obligation."""

    def __init__(self, error: UnsupportedError) -> None:
        super().__init__(error.message)
        self.error = error


@dataclass
class _FormulaState:
    position: Position
    everywhere: bool  # `__global_*`: at every thread, active or not
    result: str | None  # a device function's result variable (`__return_val_int()`)
    entry: dict[str, str] | None  # a device function's __ensures: parameter -> value at entry
    other: str | None = None  # the bound name of "the other thread", once used
    in_other: bool = False


@dataclass
class Dialect(Inliner):
    warnings: list[SpecWarning] = field(default_factory=list)  # of the kernel being translated
    file_axioms: list[Clause] = field(default_factory=list)
    axiom_warnings: list[SpecWarning] = field(default_factory=list)
    formula_state: _FormulaState | None = None
    entry_values: dict[str, str] | None = None  # a device function's __ensures: parameters at entry

    def loop_cond(self, cur: Any) -> Term:
        raise NotImplementedError  # translate.Translator

    # ------------------------------------------------------------ recognising calls

    def intrinsic(self, cur: Any) -> str | None:
        """The name of the GPUVerify intrinsic `cur` calls, or None."""
        cur = strip(cur, self.K)
        if cur.kind != self.K.CALL_EXPR or cur.spelling not in INTRINSICS:
            return None
        return str(cur.spelling) if is_prelude(cur.referenced) else None

    def _argument(self, cur: Any, index: int = 0) -> Any:
        return list(strip(cur, self.K).get_arguments())[index]

    # ------------------------------------------------------------ contracts

    def contract_calls(
        self, children: Sequence[Any], result: str | None, entry: dict[str, str] | None = None
    ) -> tuple[list[Any], list[Any], list[Any]]:
        """Split a function body's statements into its leading `__requires`/`__ensures` calls
        (as clauses for a kernel; as asserts for an inlined device function, whose `result`
        variable `__return_val_int()` names and whose scalar parameters' values at entry
        are held by the temporaries `entry`) and the rest. The contract must come first:
        after other statements it would be read in a state the body has already changed.

        In `__ensures`, a scalar parameter means its value at entry, as for GPUVerify (C
        evaluates the call's argument where it stands, and parameters are values): `\\old(n)`
        in a kernel, the call's temporary in a device function."""
        requires: list[Any] = []
        ensures: list[Any] = []
        rest = list(children)
        kernel = not self.inlining
        while rest and self.intrinsic(rest[0]) in CONTRACT:
            cur = strip(rest.pop(0), self.K)
            name = str(cur.spelling)
            everywhere = name.startswith("__global")
            post = name.endswith("ensures")
            if kernel:
                position = Position.ENSURES if post else Position.REQUIRES
                kind = ClauseKind.ENSURES if post else ClauseKind.REQUIRES
                # a kernel's requires/ensures are read at every thread already, all enabled
                c = self.dialect_clause(kind, position, cur, False, None)
                if c is not None:
                    (ensures if post else requires).append(c)
            else:
                # inlined: the caller must establish __requires, the body __ensures (both checked)
                self.entry_values = entry if post else None
                try:
                    c = self.dialect_clause(ClauseKind.ASSERT, Position.ASSERT, cur, everywhere, result)
                finally:
                    self.entry_values = None
                if c is not None:
                    (ensures if post else requires).append(AnnotStmt(c, c.span))
        return requires, ensures, rest

    def read_axioms(self, top_level: Sequence[Any]) -> None:
        """GPUVerify's file-scope `__axiom(e)` (the prelude makes it a function `__axiom_N`
        returning e): a precondition of every kernel of the file (`file_axioms`, and the
        warnings of those dropped in `axiom_warnings`)."""
        out: list[Clause] = []
        self.warnings = []
        for cur in top_level:
            name = str(cur.spelling)
            if cur.kind != self.K.FUNCTION_DECL or not re.fullmatch(r"__axiom_\d+", name):
                continue
            if not cur.is_definition() or not clang.in_file(cur, self.tu_path):
                continue
            body = [ch for ch in cur.get_children() if ch.kind == self.K.COMPOUND_STMT]
            stmts = list(body[0].get_children()) if body else []
            values = list(stmts[0].get_children()) if len(stmts) == 1 else []
            span = self.span(cur)
            if len(stmts) != 1 or stmts[0].kind != self.K.RETURN_STMT or len(values) != 1:
                raise SpecError(f"'{name}' is not an axiom made by '__axiom(e)'", span)
            (value,) = values
            kind, pos = ClauseKind.REQUIRES, Position.REQUIRES
            c = self.formula_clause(kind, pos, value, "__axiom", span, False, None)
            if c is not None:
                out.append(c)
        self.file_axioms, self.axiom_warnings = out, self.warnings

    # ------------------------------------------------------------ statements

    def dialect_stmt(self, cur: Any) -> Stmt | None:
        """An expression statement that calls an intrinsic, as our statement (None: not one)."""
        name = self.intrinsic(cur)
        if name is None:
            return None
        cur = strip(cur, self.K)
        span = self.span(cur)
        if name in CONTRACT:
            raise SpecError(
                f"'{name}' may only stand at the start of a kernel or device function body",
                span,
                "GPUVerify's contract calls come before any other statement of the body",
            )
        if name == "__requires_fresh_array":
            # hoaregpu's model: distinct array parameters never alias, which is what it asks
            return EmptyStmt(span)
        if name not in STATEMENTS:
            raise self.unsupported(
                f"'{name}(...)' as a statement",
                cur,
                "GPUVerify's formula intrinsics stand inside "
                "__requires, __ensures, __assert, __assume, __invariant",
            )
        everywhere = name.startswith("__global")
        if name == "__assume":
            c = self.dialect_clause(ClauseKind.ASSUME, Position.ASSUME, cur, everywhere, None)
        else:
            # `__invariant` elsewhere than at a loop head is an assertion (GPUVerify's docs)
            c = self.dialect_clause(ClauseKind.ASSERT, Position.ASSERT, cur, everywhere, None)
        return EmptyStmt(span) if c is None else AnnotStmt(c, c.span)

    def loop_head(self, cur: Any) -> tuple[tuple[Clause, ...], Term]:
        """A loop condition `__invariant(a), __invariant(b), guard`: the invariants and the guard
        (GPUVerify writes loop invariants before the guard with the comma operator; an
        `__assert` there is an invariant too)."""
        heads: list[Any] = []
        top = strip(cur, self.K)
        if top.kind != self.K.BINARY_OPERATOR or clang.binary_operator(top) != _COMMA:
            return (), self.loop_cond(cur)
        left, guard = top.get_children()  # `a, b, g` is `(a, b), g`
        if not self._invariant_chain(left, heads):
            return (), self.loop_cond(cur)  # the comma operator, unsupported as such
        clauses = []
        for h in heads:
            everywhere = h.spelling.startswith("__global")
            c = self.dialect_clause(ClauseKind.LOOP_INVARIANT, Position.INVARIANT, h, everywhere, None)
            if c is not None:
                clauses.append(c)
        return tuple(clauses), self.loop_cond(guard)

    def _invariant_chain(self, cur: Any, out: list[Any]) -> bool:
        """Whether `cur` is `inv, inv, ...` of loop-head intrinsics (collected into `out`)."""
        cur = strip(cur, self.K)
        if cur.kind == self.K.BINARY_OPERATOR and clang.binary_operator(cur) == _COMMA:
            left, right = cur.get_children()
            return self._invariant_chain(left, out) and self._invariant_chain(right, out)
        if self.intrinsic(cur) in LOOP_HEAD:
            out.append(cur)
            return True
        return False

    # ------------------------------------------------------------ clauses

    def dialect_clause(
        self, kind: ClauseKind, position: Position, call: Any, everywhere: bool, result: str | None
    ) -> Clause | None:
        """The clause of the call `call` (its one argument is the formula); None when it was
        dropped (with a warning)."""
        return self.formula_clause(
            kind, position, self._argument(call), str(call.spelling), self.span(call), everywhere, result
        )

    def formula_clause(
        self,
        kind: ClauseKind,
        position: Position,
        cur: Any,
        name: str,
        span: Span,
        everywhere: bool,
        result: str | None,
    ) -> Clause | None:
        """The clause `kind` of the formula `cur` written with the intrinsic `name` at `span`."""
        state = _FormulaState(position, everywhere, result, self.entry_values)
        outer, self.formula_state = self.formula_state, state
        try:
            formula = self.expr(cur)
        except _Untranslatable as exc:
            if not position.droppable:
                raise exc.error from None
            self.warnings.append(
                SpecWarning(
                    f"'{name}' dropped: {exc.error.construct} cannot be read by hoaregpu "
                    f"({'a hypothesis' if position.hypothesis_only else 'a loop invariant'}: "
                    "the proof goes on without it)",
                    span,
                    WARNING_TAG,
                )
            )
            return None
        finally:
            self.formula_state = outer
        formula = with_c_checks(formula, position.hypothesis_only)
        if state.other is not None:
            formula = for_other_threads(formula)
        if everywhere:
            formula = at_every_thread(fresh_name("__every_tid", formula), formula)
        if (state.other is not None or everywhere) and not position.droppable:
            # the quantifiers range over the threads 0..blockDim.x-1 of the block, which are all
            # threads (as GPUVerify's other thread ranges over) only for one 1-D block: to prove
            formula = Binary(BinOp.AND, one_block_1d(span), formula, span)
        return Clause(kind, formula, span)

    # ------------------------------------------------------------ formulas

    def expr(self, cur: Any) -> Term:
        state = self.formula_state
        name = self.intrinsic(cur) if cur.kind == self.K.CALL_EXPR else None
        if state is None:
            if name is not None and name != "__all":  # `__all` in code is CUDA's warp vote
                raise self.unsupported(
                    f"GPUVerify intrinsic '{name}' in program code",
                    cur,
                    "GPUVerify's annotations are statements: __requires(e); __assert(e); ...",
                )
            return super().expr(cur)
        if cur.kind == self.K.CALL_EXPR:
            if name is None:
                raise self.unsupported(
                    f"call to '{cur.spelling}' inside a GPUVerify annotation",
                    cur,
                    "annotations may use the kernel's variables and GPUVerify's intrinsics",
                )
            return self._intrinsic_term(name, cur, state)
        if cur.kind == self.K.DECL_REF_EXPR and _is_scalar_parameter(cur, self.K):
            if state.position is Position.ENSURES:  # a kernel's: the parameter's value at entry
                return Old(super().expr(cur), self.span(cur))
            if state.entry is not None and cur.spelling in state.entry:
                return Var(state.entry[cur.spelling], (), self.span(cur))
        if cur.kind == self.K.UNEXPOSED_EXPR and _converts_to_bool(cur, self.K):
            # the intrinsics take bools: `__uniform_bool(x)` of an int x compares x != 0
            (operand,) = cur.get_children()
            return Binary(BinOp.NE, self.expr(operand), IntLit(0), self.span(cur))
        if cur.kind == self.K.BINARY_OPERATOR and clang.binary_operator(cur) in _BITWISE_LOGIC:
            left, right = cur.get_children()
            if _is_bool(left, self.K) and _is_bool(right, self.K):
                # GPUVerify's annotations write `a == 1 | a == 2`: on bools `|`/`&` are `||`/`&&`
                op = _BITWISE_LOGIC[clang.binary_operator(cur)]
                return Binary(op, self.expr(left), self.expr(right), self.span(cur))
        return super().expr(cur)

    def _intrinsic_term(self, name: str, cur: Any, state: _FormulaState) -> Term:
        span = self.span(cur)
        args = list(cur.get_arguments())
        if name == "__implies":
            return Binary(BinOp.IMPLIES, self.expr(args[0]), self.expr(args[1]), span)
        if name == "__enabled":
            if state.in_other or state.everywhere:
                whose = "the other thread" if state.in_other else "a thread in a '__global_*' clause"
                raise _Untranslatable(
                    self.unsupported(
                        f"'__enabled()' of {whose}",
                        cur,
                        "hoaregpu's formulas speak of the active threads but cannot name whether "
                        "another thread is active",
                    )
                )
            return IntLit(1, span)  # clauses are read at the active threads (README, thread reading)
        if name in OTHER:
            return self._other(args[0], cur, state)
        if name in PAIR:
            return Binary(PAIR[name], self.expr(args[0]), self._other(args[0], cur, state), span)
        if name in ("__all", "__exclusive"):
            both = Binary(BinOp.AND, self.expr(args[0]), self._other(args[0], cur, state), span)
            return both if name == "__all" else Unary(UnOp.NOT, both, span)
        if name in OLD:
            if state.position is not Position.ENSURES:
                raise self.unsupported(
                    f"'{name}' outside a kernel's '__ensures'", cur, "use it in a kernel's __ensures"
                )
            return Old(self.expr(args[0]), span)
        if name in RETURN:
            if state.result is None:
                raise SpecError(
                    f"'{name}()' names the value a device function returns: use it in that "
                    "function's '__ensures'",
                    span,
                )
            return Var(state.result, (), span)
        if name in MEMORY:
            raise _Untranslatable(self.unsupported(f"'{name}'", cur, MEMORY_HINT))
        raise self.unsupported(f"'{name}' inside a formula", cur)

    def _other(self, arg: Any, cur: Any, state: _FormulaState) -> Term:
        if state.in_other:
            raise self.unsupported(
                "GPUVerify's 'the other thread' inside 'the other thread'", cur, "name one other thread"
            )
        if state.everywhere:
            raise self.unsupported("'__other_int'/'__other_bool' in a '__global_*' clause", cur)
        if state.other is None:
            state.other = PLACEHOLDER  # named when the clause is complete
        state.in_other = True
        try:
            value = self.expr(arg)
        finally:
            state.in_other = False
        return At(value, Var(state.other, (), self.span(cur)), self.span(cur))


_COMMA = 33
_BITWISE_LOGIC = {17: BinOp.AND, 19: BinOp.OR}


def _is_scalar_parameter(cur: Any, K: Any) -> bool:
    ref = cur.referenced
    if ref is None or ref.kind != K.PARM_DECL:
        return False
    return ref.type.get_canonical().kind.name not in ("POINTER", "CONSTANTARRAY", "INCOMPLETEARRAY")


def _converts_to_bool(cur: Any, K: Any) -> bool:
    """An implicit conversion of a value that is not a bool to bool."""
    children = list(cur.get_children())
    if len(children) != 1 or cur.type.get_canonical().kind.name != "BOOL":
        return False
    return not _is_bool(children[0], K)


def _is_bool(cur: Any, K: Any) -> bool:
    """Whether `cur` is 0 or 1: a bool, or `&`/`|` of such (C promotes `a | b` of bools to int)."""
    cur = strip(cur, K)
    if cur.type.get_canonical().kind.name == "BOOL":
        return True
    if cur.kind == K.BINARY_OPERATOR and clang.binary_operator(cur) in _BITWISE_LOGIC:
        return all(_is_bool(ch, K) for ch in cur.get_children())
    # C's (and OpenCL's) comparisons and logical operators are ints 0 or 1, not bools
    if cur.kind == K.BINARY_OPERATOR:
        op = BINARY.get(clang.binary_operator(cur))
        return op is not None and (op.is_comparison or op in (BinOp.AND, BinOp.OR))
    return cur.kind == K.UNARY_OPERATOR and clang.unary_operator(cur) == LNOT
