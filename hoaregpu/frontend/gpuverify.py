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

from ..errors import SpecError, SpecWarning
from ..syntax import AnnotStmt, Clause, ClauseKind, EmptyStmt, Stmt
from ..terms import Term
from . import clang
from .ckinds import strip
from .gpuverify_formulas import COMMA, WARNING_TAG, DialectFormulas
from .gpuverify_names import (
    CANDIDATES,
    CONTRACT,
    FUNCTION_WIDE,
    LOOP_HEAD,
    STATEMENTS,
    Position,
)


@dataclass
class Dialect(DialectFormulas):
    file_axioms: list[Clause] = field(default_factory=list)
    axiom_warnings: list[SpecWarning] = field(default_factory=list)
    # `__function_wide_invariant`s of the functions being translated, innermost last
    function_wide: list[tuple[Clause, ...]] = field(default_factory=list)

    def loop_cond(self, cur: Any) -> Term:
        raise NotImplementedError  # translate.Translator

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

    def push_function_wide(self, children: Sequence[Any]) -> list[Any]:
        """The body's statements without its trailing function-wide invariants, which hold for
        the loops translated until `pop_function_wide`."""
        wide, rest = self.function_wide_calls(children)
        self.function_wide.append(wide)
        return rest

    def pop_function_wide(self) -> None:
        if self.function_wide:  # a kernel's `finally` runs also when the body failed before the push
            self.function_wide.pop()

    def function_wide_calls(self, children: Sequence[Any]) -> tuple[tuple[Clause, ...], list[Any]]:
        """Split a function body's trailing `__function_wide_invariant(e);` calls off its
        statements: each is a loop invariant of every loop of the function (proved at each,
        like one written there). A `__function_wide_candidate_invariant` is a candidate, which
        GPUVerify keeps only where it holds: dropped, as every candidate (`_drop_candidate`)."""
        rest = list(children)
        clauses: list[Clause] = []
        while rest and self.intrinsic(rest[-1]) in FUNCTION_WIDE | CANDIDATES:
            cur = strip(rest.pop(), self.K)
            if cur.spelling in CANDIDATES:
                self._drop_candidate(cur)
                continue
            kind, position = ClauseKind.LOOP_INVARIANT, Position.INVARIANT
            c = self.dialect_clause(kind, position, cur, False, None)
            if c is not None:
                clauses.insert(0, c)
        return tuple(clauses), rest

    def _drop_candidate(self, cur: Any) -> None:
        self.warnings.append(
            SpecWarning(
                f"'{cur.spelling}' dropped: a candidate, which GPUVerify keeps only where it holds; "
                "hoaregpu guesses candidates of its own instead (the proof goes on without it)",
                self.span(cur),
                WARNING_TAG,
            )
        )

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
        if name == "__access_permission":
            # `__read_permission(T, x)`: lets GPUVerify's race instrumentation see an access that
            # a barrier invariant needs; nothing for hoaregpu's proof, which keeps every state
            return EmptyStmt(span)
        if name == "__requires_fresh_array":
            # hoaregpu's model: distinct array parameters never alias, which is what it asks
            return EmptyStmt(span)
        if name in FUNCTION_WIDE or name == "__function_wide_candidate_invariant":
            raise SpecError(
                f"'{name}' may only stand at the end of a kernel or device function body",
                span,
                "GPUVerify's function-wide invariants follow every other statement of the body",
            )
        if name in CANDIDATES:
            self._drop_candidate(cur)
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
            # `__invariant` elsewhere than at a loop head is an assertion (GPUVerify's docs); so is
            # a barrier invariant: proved at the active threads, all of them at a barrier, and
            # then known of each (our proof keeps every thread's state: no instantiations needed)
            c = self.dialect_clause(ClauseKind.ASSERT, Position.ASSERT, cur, everywhere, None)
        return EmptyStmt(span) if c is None else AnnotStmt(c, c.span)

    def loop_head(self, cur: Any) -> tuple[tuple[Clause, ...], Term]:
        """A loop condition `__invariant(a), __invariant(b), guard`: the invariants and the guard
        (GPUVerify writes loop invariants before the guard with the comma operator; an
        `__assert` there is an invariant too)."""
        heads: list[Any] = []
        wide = self.function_wide[-1] if self.function_wide else ()
        top = strip(cur, self.K)
        if top.kind != self.K.BINARY_OPERATOR or clang.binary_operator(top) != COMMA:
            return wide, self.loop_cond(cur)
        left, guard = top.get_children()  # `a, b, g` is `(a, b), g`
        if not self._invariant_chain(left, heads):
            return wide, self.loop_cond(cur)  # the comma operator, unsupported as such
        clauses = []
        for h in heads:
            if h.spelling in CANDIDATES:
                self._drop_candidate(h)
                continue
            # `__global_invariant(e)` is read as `e` at the threads that reached the loop (also
            # those that left it), not at every thread: an invariant is a means of proof, and
            # proving and assuming the weaker formula is sound for every VC (it is GPUVerify's
            # reading wherever all threads reach the loop); it works with several blocks,
            # where a quantifier over the block's threads does not say "every thread"
            c = self.dialect_clause(ClauseKind.LOOP_INVARIANT, Position.INVARIANT, h, False, None)
            if c is not None:
                clauses.append(c)
        return (*clauses, *wide), self.loop_cond(guard)

    def _invariant_chain(self, cur: Any, out: list[Any]) -> bool:
        """Whether `cur` is `inv, inv, ...` of loop-head intrinsics (collected into `out`)."""
        cur = strip(cur, self.K)
        if cur.kind == self.K.BINARY_OPERATOR and clang.binary_operator(cur) == COMMA:
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
