"""GPUVerify's annotation dialect, the formulas: what the argument of an annotation call means
in our logic, intrinsic by intrinsic (the table of docs/gpuverify-dialect.md), and whether it
can be said at all (`Untranslatable`). `gpuverify.py` places the clauses they make."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..errors import Span, SpecError, SpecWarning, UnsupportedError
from ..syntax import Clause, ClauseKind
from ..terms import (
    AccessKind,
    At,
    Binary,
    BinOp,
    Conditional,
    IntLit,
    Old,
    Term,
    Unary,
    UnOp,
    Var,
)
from . import clang
from .ckinds import BINARY, LNOT, is_prelude, strip
from .gpuverify_access import FACTS, OFFSETS, access_term
from .gpuverify_names import (
    INTRINSICS,
    MEMORY,
    MEMORY_HINT,
    OLD,
    OTHER,
    PAIR,
    RETURN,
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


class Untranslatable(Exception):
    """A formula our logic cannot state: dropped in a hypothesis, unsupported in an obligation."""

    def __init__(self, error: UnsupportedError) -> None:
        super().__init__(error.message)
        self.error = error


@dataclass
class FormulaState:
    position: Position
    everywhere: bool  # `__global_*`: at every thread, active or not
    result: str | None  # a device function's result variable (`__return_val_int()`)
    entry: dict[str, str] | None  # a device function's __ensures: parameter -> value at entry
    other: str | None = None  # the bound name of "the other thread", once used
    in_other: bool = False
    # inside `__write_implies(p, e)`: (access kind, array) -> the name bound to its cell
    offsets: dict[tuple[AccessKind, str], str] = field(default_factory=dict)


@dataclass
class DialectFormulas(Inliner):
    warnings: list[SpecWarning] = field(default_factory=list)  # of the kernel being translated
    formula_state: FormulaState | None = None
    entry_values: dict[str, str] | None = None  # a device function's __ensures: parameters at entry

    # ------------------------------------------------------------ recognising calls

    def intrinsic(self, cur: Any) -> str | None:
        """The name of the GPUVerify intrinsic `cur` calls, or None."""
        cur = strip(cur, self.K)
        if cur.kind != self.K.CALL_EXPR or cur.spelling not in INTRINSICS:
            return None
        return str(cur.spelling) if is_prelude(cur.referenced) else None

    def _argument(self, cur: Any, index: int = 0) -> Any:
        return list(strip(cur, self.K).get_arguments())[index]

    # ------------------------------------------------------------ clauses

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
        state = FormulaState(position, everywhere, result, self.entry_values)
        outer, self.formula_state = self.formula_state, state
        try:
            formula = self.expr(cur)
        except Untranslatable as exc:
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
            formula = Binary(BinOp.AND, one_block_1d(span, self._same_group_only(cur, name)), formula, span)
        return Clause(kind, formula, span)

    def _same_group_only(self, cur: Any, name: str) -> bool:
        """Whether the formula is about the other threads of this thread's group only, which
        are exactly those our quantifier ranges over: `__implies(__same_group, φ)`, and a
        barrier invariant (a barrier synchronises one group: GPUVerify's pairs are in one)."""
        if name == "__barrier_invariant":
            return True
        top = strip(cur, self.K)
        if self.intrinsic(top) != "__implies":
            return False
        guard = strip(next(iter(top.get_arguments())), self.K)
        return self.intrinsic(guard) == "__same_group_"

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

    def _intrinsic_term(self, name: str, cur: Any, state: FormulaState) -> Term:
        span = self.span(cur)
        args = list(cur.get_arguments())
        if name == "__implies":
            return Binary(BinOp.IMPLIES, self.expr(args[0]), self.expr(args[1]), span)
        if name == "__ite":
            return Conditional(self.expr(args[0]), self.expr(args[1]), self.expr(args[2]), span)
        if name == "__same_group_":
            # whether the other thread is in this thread's group: ours ranges over the block
            # (`_other`), so it is, and naming it quantifies the clause over the other thread
            if state.everywhere:
                raise self.unsupported("'__same_group' in a '__global_*' clause", cur)
            if state.other is None:
                state.other = PLACEHOLDER
            return IntLit(1, span)
        if name == "__enabled":
            if state.in_other or state.everywhere:
                whose = "the other thread" if state.in_other else "a thread in a '__global_*' clause"
                raise Untranslatable(
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
        if name in FACTS | OFFSETS:
            return access_term(self, name, cur, state)
        if name in MEMORY:
            raise Untranslatable(self.unsupported(f"'{name}'", cur, MEMORY_HINT))
        raise self.unsupported(f"'{name}' inside a formula", cur)

    def _other(self, arg: Any, cur: Any, state: FormulaState) -> Term:
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


COMMA = 33
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
