"""Lowering: surface CUDA syntax → the core language of `hoaregpu.core`.

What it does:
- declarations become variables with unique core names (a shadowing C declaration is
  renamed `x.1`, `x.2`, ...: a dot cannot occur in a C name, so no clash is possible),
  and initialisers become assignments;
- `x op= e` becomes `x := x op e`, `x++` becomes `x := x + 1`, `for` becomes `while`;
- names in expressions and annotation formulas are resolved (bound variables of
  quantifiers are left alone), array reads are checked against the declared dimension;
- a scalar parameter the body never assigns is a shared scalar (one uniform value); an
  assigned one is a local whose copies are equal in all threads on entry;
- assignments to `bool` variables store `e != 0`, as C converts to bool.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace

from . import core, early_exit, grid, syntax
from .access_facts import check_placement as check_access_facts
from .access_facts import check_target as check_fact_target
from .barrier_invariants import barrier_cut
from .errors import Span, SpecError, UnsupportedError
from .floats import check_annotation as check_float_annotation
from .lower_calls import lower_call
from .lower_checks import EvaluationChecks, VarInfo, extent
from .term_walk import subterms
from .terms import (
    RESULT,
    Access,
    Aggregate,
    At,
    Binary,
    BinOp,
    BlockCount,
    BlockId,
    Conditional,
    Fits,
    IntLit,
    Old,
    Quant,
    Term,
    ThreadCount,
    ThreadId,
    ThreadPred,
    Unary,
    Unsigned,
    Var,
)
from .written_sums import fold_written_sums


@dataclass
class _Lowerer(EvaluationChecks):
    path: str
    scopes: list[dict[str, str]] = field(default_factory=list)
    info: dict[str, VarInfo] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)
    # the scalar parameters that are memory (`__device__` variables): access facts may name them
    memory_scalars: set[str] = field(default_factory=set)

    # -- scopes and declarations -------------------------------------------------

    @contextmanager
    def scope(self) -> Iterator[None]:
        self.scopes.append({})
        try:
            yield
        finally:
            self.scopes.pop()

    def declare(
        self, c_name: str, kind: core.VarKind, dim: int, role: core.VarRole, typ: syntax.BaseType, span: Span
    ) -> str:
        if c_name in self.scopes[-1]:
            raise SpecError(f"'{c_name}' is declared twice in the same scope", span)
        name = c_name
        n = 0
        while name in self.info or _suffix_clash(name, self.info):
            n += 1
            name = f"{c_name}.{n}"
        decl = core.VarDecl(
            name=name,
            kind=kind,
            dim=dim,
            role=role,
            nonnegative=typ.nonnegative,
            boolean=typ is syntax.BaseType.BOOL,
            floating=typ is syntax.BaseType.FLOAT,
            source_name=c_name if name != c_name else None,
            span=span,
        )
        self.info[name] = VarInfo(decl, typ)
        self.order.append(name)
        self.scopes[-1][c_name] = name
        return name

    def lookup(self, c_name: str) -> str | None:
        for sc in reversed(self.scopes):
            if c_name in sc:
                return sc[c_name]
        return None

    # -- terms -------------------------------------------------------------------

    def term(self, t: Term, bound: frozenset[str] = frozenset()) -> Term:
        if isinstance(t, Var):
            if t.name in bound and not t.indices:
                return t
            name = self.lookup(t.name)
            if name is None and t.name == RESULT:
                raise UnsupportedError(
                    "'\\result'",
                    _span(t, self.path),
                    "it names a __device__ function's value in its ensures",
                )
            if name is None:
                where = " (not a bound variable either)" if bound else ""
                raise SpecError(f"unknown variable '{t.name}'{where}", _span(t, self.path))
            decl = self.info[name].decl
            if len(t.indices) != decl.dim:
                raise SpecError(_dim_message(t.name, decl.dim, len(t.indices)), _span(t, self.path))
            return Var(name, tuple(self.term(i, bound) for i in t.indices), t.span)
        if isinstance(t, (IntLit, ThreadId, ThreadCount, BlockId, BlockCount)):
            return t
        if isinstance(t, Binary):
            return Binary(t.op, self.term(t.left, bound), self.term(t.right, bound), t.span)
        if isinstance(t, Unary):
            return Unary(t.op, self.term(t.operand, bound), t.span)
        if isinstance(t, Conditional):
            return Conditional(
                self.term(t.cond, bound), self.term(t.then, bound), self.term(t.orelse, bound), t.span
            )
        if isinstance(t, Quant):
            return Quant(t.kind, t.names, self.term(t.body, bound | frozenset(t.names)), t.span)
        if isinstance(t, Aggregate):
            body = self.term(t.body, bound | {t.name})
            return replace(t, low=self.term(t.low, bound), high=self.term(t.high, bound), body=body)
        if isinstance(t, At):
            return At(self.term(t.term, bound), self.term(t.thread, bound), t.span)
        if isinstance(t, Old):
            return Old(self.term(t.term, bound), t.span)
        if isinstance(t, ThreadPred):
            return ThreadPred(t.kind, self.term(t.term, bound), t.span)
        if isinstance(t, Unsigned):
            return Unsigned(self.term(t.term, bound), t.span)
        if isinstance(t, Fits):
            return Fits(self.term(t.term, bound), t.low, t.high, t.span, t.index)
        if isinstance(t, Access):
            return self.access_fact(t, bound)
        raise AssertionError(f"unexpected term {t!r}")

    def access_fact(self, t: Access, bound: frozenset[str]) -> Access:
        """`\\written(a, i)` etc.: `a` a memory array (hoaregpu.access_facts), one index per
        dimension (none: some cell)."""
        what, target = t.kind.value, t.target
        span = _span(t, self.path)
        if not isinstance(target, Var):
            raise SpecError(
                f"'{what}' must name one array (a pointer that may point into several does not)", span
            )
        name = self.lookup(target.name)
        if name is None or target.name in bound:
            raise SpecError(f"unknown array '{target.name}' in '{what}'", span)
        decl = self.info[name].decl
        check_fact_target(t, decl, name in self.memory_scalars, span, lambda x: _span(x, self.path))
        if not t.any_cell and len(target.indices) != decl.dim:
            raise SpecError(_dim_message(target.name, decl.dim, len(target.indices)), span)
        indices = tuple(self.term(i, bound) for i in target.indices)
        return Access(t.kind, Var(name, indices, target.span), t.any_cell, t.span)

    def formula(self, clause: syntax.Clause) -> core.Formula:
        term = fold_written_sums(self.term(clause.formula))
        check_float_annotation(term, lambda n: n in self.info and self.info[n].decl.floating, self.path)
        return core.Formula(term, clause.span)

    # -- statements --------------------------------------------------------------

    def stmts(self, stmts: Sequence[syntax.Stmt]) -> core.Stmt:
        out: list[core.Stmt] = []
        for s in stmts:
            lowered = self.stmt(s)
            if isinstance(lowered, core.Seq):
                out.extend(lowered.stmts)
            elif not isinstance(lowered, core.Skip):
                out.append(lowered)
        if len(out) == 1:
            return out[0]
        return core.Seq(tuple(out))

    def stmt(self, s: syntax.Stmt) -> core.Stmt:
        if isinstance(s, syntax.Decl):
            return self.decl(s)
        if isinstance(s, syntax.AssignStmt):
            return self.assign(s.target, s.op, s.value, s.span)
        if isinstance(s, syntax.IncDec):
            op = syntax.AssignOp.ADD if s.delta > 0 else syntax.AssignOp.SUB
            return self.assign(s.target, op, IntLit(abs(s.delta), s.span), s.span)
        if isinstance(s, syntax.IfStmt):
            with self.scope():
                then = self.stmts([s.then])
            with self.scope():
                orelse = self.stmts([s.orelse]) if s.orelse is not None else core.Skip()
            checks, (cond,) = self.evaluated(self.term(s.cond))
            return self._seq(checks, core.If(cond, then, orelse, s.span))
        if isinstance(s, syntax.WhileStmt):
            checks, (cond,) = self.evaluated(self.term(s.cond))
            invariants = tuple(self.formula(c) for c in s.invariants)
            with self.scope():
                body = self.stmts([s.body])
            # the condition is evaluated on entry and again after every iteration
            return self._seq(checks, self._loop(cond, body, checks, invariants, s.span))
        if isinstance(s, syntax.ForStmt):
            with self.scope():
                init = self.stmts([s.init]) if s.init is not None else core.Skip()
                checks, (cond,) = self.evaluated(
                    self.term(s.cond) if s.cond is not None else IntLit(1, s.span)
                )
                invariants = tuple(self.formula(c) for c in s.invariants)
                with self.scope():
                    body = self.stmts([s.body])
                step = self.stmts([s.step]) if s.step is not None else core.Skip()
                loop = self._loop(cond, body, self._seq(step, checks), invariants, s.span)
            return self._seq(init, self._seq(checks, loop))
        if isinstance(s, syntax.Block):
            if not s.scoped:
                return self.stmts(s.stmts)
            with self.scope():
                body = self.stmts(s.stmts)
            if s.returns:  # an inlined function's `return`s end its body (a flag of their own)
                body = early_exit.kernel_body(body, self.exit_flag)
            if s.contract_call is not None:
                return self._opaque(body, s.contract_call, s.span)
            return body
        if isinstance(s, syntax.SyncStmt):
            return core.Sync(s.span, grid=s.grid, fences=s.fences)
        if isinstance(s, syntax.ExitStmt):
            return core.Exit(s.kind, s.span)
        if isinstance(s, syntax.AliasDecl):
            target = self.lookup(s.target)
            if target is None:
                raise SpecError(f"unknown variable '{s.target}'", s.span)
            self.scopes[-1][s.name] = target
            return core.Skip(s.span)
        if isinstance(s, syntax.EmptyStmt):
            return core.Skip(s.span)
        if isinstance(s, syntax.CallStmt):  # declared-only functions, atomics
            checks, call = lower_call(self, s, lambda n: self.info[n].decl)
            return self._seq(checks, call)
        if isinstance(s, syntax.AnnotStmt):
            f = self.formula(s.clause)
            if s.clause.kind is syntax.ClauseKind.ASSERT and s.call is not None:
                return core.Assert(f, s.span, core.CheckKind.CALL_PRECONDITION)
            if s.clause.kind is syntax.ClauseKind.ASSERT:
                return core.Assert(f, s.span)
            if s.clause.kind is syntax.ClauseKind.ASSUME:
                return core.Assume(f, s.span, contract=s.call)
            if s.clause.kind is syntax.ClauseKind.BARRIER_INVARIANT:
                return self.barrier_invariant([f, *(self.formula(c) for c in s.together)], s.span)
            raise SpecError(f"'{s.clause.kind.value}' cannot stand as a statement", s.span)
        raise AssertionError(f"unexpected statement {s!r}")

    def _opaque(self, body: core.Stmt, function: str, span: Span) -> core.Opaque:
        """A call through a contract: the verifier havocs what the body assigns, which is
        sound only if that is all the body does (no memory written, no barrier)."""
        problem = contract_body_problem(body, lambda name: self.info[name].decl)
        if problem is not None:
            raise SpecError(
                f"'{function}' has a contract but {problem}",
                span,
                hint="a device function with a contract may only compute its result; "
                "drop the contract to have the call inlined",
            )
        return core.Opaque(body, function, span)

    def _loop(
        self, cond: Term, body: core.Stmt, step: core.Stmt, invariants: tuple[core.Formula, ...], span: Span
    ) -> core.Stmt:
        exits = (core.ExitKind.BREAK, core.ExitKind.CONTINUE)
        if any(early_exit.contains(body, k, nested_loops=False) for k in exits):
            return early_exit.loop(
                cond, body, step, invariants, span, self.exit_flag, self._reads_locals_only
            )
        return core.While(cond, self._seq(body, step), invariants, span)

    def _reads_locals_only(self, t: Term) -> bool:
        """Reads only per-thread variables (and thread ids, constants): values other threads
        cannot change."""
        for sub in subterms(t):
            if isinstance(sub, Var) and self.info[sub.name].decl.kind is not core.VarKind.LOCAL:
                return False
        return True

    def exit_flag(self, kind: core.ExitKind) -> str:
        """A fresh per-thread flag for `hoaregpu.early_exit` (a dot cannot occur in a C name)."""
        n = 1
        while f"{kind.value}.{n}" in self.info:
            n += 1
        name = f"{kind.value}.{n}"
        decl = core.VarDecl(name, core.VarKind.LOCAL, 0, core.VarRole.SYNTHETIC)
        self.info[name] = VarInfo(decl, syntax.BaseType.BOOL)
        self.order.append(name)
        return name

    def barrier_invariant(self, clauses: list[core.Formula], span: Span) -> core.Stmt:
        visible = {n for scope in self.scopes for n in scope.values()}
        ended = [n for n in self.order if n not in visible and self.info[n].decl.role is core.VarRole.LOCAL]
        memory = lambda name: name in self.info and self.info[name].decl.kind is core.VarKind.SHARED  # noqa: E731
        return barrier_cut(clauses, span, memory, ended)

    @staticmethod
    def _seq(a: core.Stmt, b: core.Stmt) -> core.Stmt:
        parts = [x for s in (a, b) for x in (s.stmts if isinstance(s, core.Seq) else (s,))]
        parts = [x for x in parts if not isinstance(x, core.Skip)]
        return parts[0] if len(parts) == 1 else core.Seq(tuple(parts))

    def decl(self, d: syntax.Decl) -> core.Stmt:
        out: list[core.Stmt] = []
        for dc in d.declarators:
            for size in dc.sizes:  # extents are checked for names, not used (arrays are unbounded)
                self.term(size)
            init = self.term(dc.init) if dc.init is not None else None
            if d.shared:
                kind, role = core.VarKind.SHARED, core.VarRole.SHARED_ARRAY
                if init is not None:
                    raise SpecError("a __shared__ variable cannot have an initialiser in CUDA", dc.span)
            else:
                kind, role = core.VarKind.LOCAL, core.VarRole.LOCAL
            name = self.declare(dc.name, kind, len(dc.sizes), role, d.type, dc.span)
            self.info[name].extents = tuple(extent(size) for size in dc.sizes)
            if init is not None:
                if dc.sizes:
                    raise SpecError("array initialisers are not supported", dc.span)
                checks, (value,) = self.evaluated(init)
                assign = self._seq(checks, core.Assign(name, (), self._convert(value, d.type), dc.span))
                out += assign.stmts if isinstance(assign, core.Seq) else [assign]
        return core.Seq(tuple(out)) if len(out) != 1 else out[0]

    def assign(self, target: Var, op: syntax.AssignOp, value: Term, span: Span) -> core.Stmt:
        name = self.lookup(target.name)
        if name is None:
            raise SpecError(f"unknown variable '{target.name}'", span)
        info = self.info[name]
        if len(target.indices) != info.decl.dim:
            raise SpecError(_dim_message(target.name, info.decl.dim, len(target.indices)), span)
        indices = self.in_rows(name, [self.term(i) for i in target.indices])
        checks, lowered = self.evaluated(*indices, self.term(value))
        indices, rhs = tuple(lowered[:-1]), lowered[-1]
        if op is not syntax.AssignOp.SET:
            rhs = Binary(op.binop, Var(name, indices, target.span), rhs, span)
        return self._seq(checks, core.Assign(name, indices, self._convert(rhs, info.type), span))

    @staticmethod
    def _convert(value: Term, typ: syntax.BaseType) -> Term:
        if typ is syntax.BaseType.BOOL and not _is_boolean(value):
            return Binary(BinOp.NE, value, IntLit(0, value.span), value.span)
        return value


# what the SMT encoding appends to a variable's name (`x.old`: its initial value; `abs.v`:
# a C name that is an SMT-LIB symbol); a struct field flattened to `x.old` must not meet them
_ENCODING_SUFFIXES = (".old", ".v")


def _suffix_clash(name: str, taken: dict[str, VarInfo]) -> bool:
    return any(
        name + s in taken or (name.endswith(s) and name[: -len(s)] in taken) for s in _ENCODING_SUFFIXES
    )


def _is_boolean(t: Term) -> bool:
    if isinstance(t, Binary):
        return t.op.is_comparison or t.op.is_logical
    return isinstance(t, Unary) and t.op.value == "!"


def _dim_message(name: str, dim: int, used: int) -> str:
    if dim == 0:
        return f"'{name}' is a scalar and cannot be indexed"
    return f"'{name}' has {dim} dimension(s) but is used with {used} index(es)"


def _span(t: Term, path: str) -> Span:
    return t.span if t.span is not None else Span(path, 1, 1)


def lower_kernel(k: syntax.KernelDef, path: str) -> core.Kernel:
    lw = _Lowerer(path)
    with lw.scope():
        assigned = syntax.assigned_names(k.body)
        params: list[str] = []
        for p in k.params:
            if p.dims > 0:
                kind, role = core.VarKind.SHARED, core.VarRole.ARRAY_PARAM
            elif p.global_var:
                kind, role = core.VarKind.SHARED, core.VarRole.SCALAR_PARAM
            elif p.name in assigned:
                kind, role = core.VarKind.LOCAL, core.VarRole.SCALAR_PARAM
            else:
                kind, role = core.VarKind.SHARED, core.VarRole.SCALAR_PARAM
            params.append(lw.declare(p.name, kind, p.dims, role, p.type, p.span))
            if p.global_var:
                lw.memory_scalars.add(params[-1])
            lw.info[params[-1]].extents = p.extents
        requires = tuple(lw.formula(c) for c in k.requires)
        for stmt in k.body.stmts:  # C: the parameters and the outermost block share one scope
            if isinstance(stmt, syntax.Decl):
                for dc in stmt.declarators:
                    if dc.name in {p.name for p in k.params}:
                        raise SpecError(f"'{dc.name}' redeclares a parameter of {k.name}", dc.span)
        with lw.scope():
            body = early_exit.kernel_body(lw.stmts(k.body.stmts), lw.exit_flag)
            # `ensures` sees the parameters and the body's outermost declarations (final values).
            ensures = tuple(lw.formula(c) for c in k.ensures)
    decls = tuple(lw.info[n].decl for n in lw.order)
    kernel = core.Kernel(
        name=k.name,
        params=tuple(params),
        decls=decls,
        requires=requires,
        ensures=ensures,
        body=body,
        launch=grid.fixed_by_requires(requires),
        span=k.span,
        device=k.device,
        warnings=k.warnings,
    )
    check_access_facts(kernel)
    return grid.per_block_shared(kernel)


def contract_body_problem(body: core.Stmt, decl: Callable[[str], core.VarDecl]) -> str | None:
    """Why `body` cannot be a device function verified on its own and called through its
    contract, or None: it must write no memory (only locals) and synchronise nowhere."""
    written = sorted(n for n in core.assigned_vars(body) if decl(n).kind is core.VarKind.SHARED)
    if written:
        return f"writes memory ('{decl(written[0]).display_name}')"
    if core.has_barrier(body):
        return "has a barrier"
    return None


def lower_file(spec: syntax.SpecFile) -> tuple[core.Kernel, ...]:
    return tuple(lower_kernel(k, spec.path) for k in spec.kernels)
