"""Surface syntax: the CUDA subset as the user wrote it, before lowering (parser output).

Statements here keep CUDA's sugar (declarations, compound assignments, `++`, `for`,
blocks); `hoaregpu.lower` turns them into the core language of `hoaregpu.core`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import TypeAlias

from .atomics import AtomicOp
from .core import ALL_FENCES, ExitKind
from .errors import Span, SpecWarning
from .terms import BinOp, Term, Var


class ClauseKind(Enum):
    REQUIRES = "requires"
    ENSURES = "ensures"
    LOOP_INVARIANT = "loop invariant"
    ASSERT = "assert"
    ASSUME = "assume"
    BARRIER_INVARIANT = "barrier invariant"


@dataclass(frozen=True)
class Clause:
    """One annotation clause `kind formula;` with the span of its keyword."""

    kind: ClauseKind
    formula: Term
    span: Span = field(compare=False, repr=False)


class BaseType(Enum):
    INT = "int"
    UNSIGNED = "unsigned"  # mathematical integer >= 0
    BOOL = "bool"
    SIZE_T = "size_t"  # mathematical integer >= 0
    FLOAT = "float"  # float or double: an opaque value (hoaregpu.floats)

    @property
    def nonnegative(self) -> bool:
        return self in (BaseType.UNSIGNED, BaseType.SIZE_T)


@dataclass(frozen=True)
class Param:
    """A kernel parameter: scalar (`int n`) or array (`int *a`, `int a[]`, `int a[][16]`)."""

    name: str
    type: BaseType
    dims: int  # 0 for a scalar, else the array's dimension
    span: Span = field(compare=False, repr=False)
    # a file-scope `__device__`/`__constant__` variable (global memory: shared even if assigned)
    global_var: bool = False
    extents: tuple[int | None, ...] = ()  # per dimension, where C fixes it (`int a[][16]`)


@dataclass(frozen=True)
class Declarator:
    """`x`, `x = e`, `buf[4]`, `t[16][16]` inside a declaration."""

    name: str
    sizes: tuple[Term, ...]  # array extents as written (arrays are unbounded maps, see README)
    init: Term | None
    span: Span = field(compare=False, repr=False)


@dataclass(frozen=True)
class Decl:
    shared: bool  # `__shared__`
    type: BaseType
    declarators: tuple[Declarator, ...]
    span: Span = field(compare=False, repr=False)


class AssignOp(Enum):
    SET = "="
    ADD = "+="
    SUB = "-="
    MUL = "*="
    DIV = "/="
    MOD = "%="
    SHL = "<<="
    SHR = ">>="
    BAND = "&="
    BOR = "|="
    BXOR = "^="

    @property
    def binop(self) -> BinOp:
        """The operator of a compound assignment (`x += e` is `x = x + e`)."""
        return BinOp(self.value[:-1])


@dataclass(frozen=True)
class AssignStmt:
    target: Var
    op: AssignOp
    value: Term
    span: Span = field(compare=False, repr=False)


@dataclass(frozen=True)
class IncDec:
    """`x++`, `++x`, `x--`, `--x` as statements."""

    target: Var
    delta: int  # +1 or -1
    span: Span = field(compare=False, repr=False)


@dataclass(frozen=True)
class IfStmt:
    cond: Term
    then: Stmt
    orelse: Stmt | None
    span: Span = field(compare=False, repr=False)


@dataclass(frozen=True)
class WhileStmt:
    cond: Term
    body: Stmt
    invariants: tuple[Clause, ...]
    span: Span = field(compare=False, repr=False)


@dataclass(frozen=True)
class ForStmt:
    init: Stmt | None  # a Decl, AssignStmt or IncDec
    cond: Term | None  # None: `for (;;)`, i.e. true
    step: Stmt | None  # an AssignStmt or IncDec
    body: Stmt
    invariants: tuple[Clause, ...]
    span: Span = field(compare=False, repr=False)


@dataclass(frozen=True)
class Block:
    stmts: tuple[Stmt, ...]
    span: Span = field(compare=False, repr=False)
    # False for statements the front end puts before one (an inlined call's): no C scope,
    # so a declaration among them is seen after the block
    scoped: bool = True
    # the body of a device function called through its contract (core.Opaque)
    contract_call: str | None = None
    # the body of an inlined device function: a `return` inside ends this block only
    returns: bool = False


@dataclass(frozen=True)
class SyncStmt:
    """`__syncthreads();`; with `grid`, a barrier of the whole grid (`grid_group::sync()`);
    OpenCL's `barrier(flags);` (`fences`: the memories it orders)."""

    span: Span = field(compare=False, repr=False)
    grid: bool = False
    fences: frozenset[str] = field(default=ALL_FENCES, compare=False, repr=False)


@dataclass(frozen=True)
class EmptyStmt:
    span: Span = field(compare=False, repr=False)


@dataclass(frozen=True)
class AnnotStmt:
    """An `assert` or `assume` clause standing as a statement; or the `barrier invariant`
    clauses of the barrier just before it: `clause` and the others in `together`."""

    clause: Clause
    span: Span = field(compare=False, repr=False)
    call: str | None = None  # the `requires` (assert) / `ensures` (assume) of this called function
    together: tuple[Clause, ...] = ()


@dataclass(frozen=True)
class AliasDecl:
    """An array parameter of an inlined device function: from here to the end of the
    enclosing block, `name` denotes the caller's array `target` (hoaregpu/frontend/inline.py)."""

    name: str
    target: str
    span: Span = field(compare=False, repr=False)


@dataclass(frozen=True)
class ExitStmt:
    """`return;` (in a kernel), `break;`, `continue;` (in a loop)."""

    kind: ExitKind
    span: Span = field(compare=False, repr=False)


@dataclass(frozen=True)
class AtomicCall:
    """`atomicOp(&target, operands...)` (hoaregpu/frontend/calls.py, hoaregpu.atomics)."""

    op: AtomicOp
    target: Var
    operands: tuple[Term, ...]
    bits: int | None  # width of an unsigned cell, None for a signed one
    floating: bool = False


@dataclass(frozen=True)
class CallStmt:
    """A call the verifier does not look into (core.Opaque): a `__device__` function declared
    without a body (`atomic` None), or an atomic read-modify-write. `result`: the local that
    receives its value; `havoc`: the C names it may change arbitrarily."""

    function: str
    result: str | None
    havoc: tuple[str, ...]
    span: Span = field(compare=False, repr=False)
    atomic: AtomicCall | None = None


Stmt: TypeAlias = (
    Decl
    | AssignStmt
    | IncDec
    | IfStmt
    | WhileStmt
    | ForStmt
    | Block
    | SyncStmt
    | EmptyStmt
    | AnnotStmt
    | ExitStmt
    | AliasDecl
    | CallStmt
)


@dataclass(frozen=True)
class KernelDef:
    name: str
    params: tuple[Param, ...]
    requires: tuple[Clause, ...]
    ensures: tuple[Clause, ...]
    body: Block
    span: Span = field(compare=False, repr=False)
    device: bool = False  # a `__device__` function with a contract, verified on its own
    # what the front end dropped or reinterpreted (GPUVerify's dialect), reported with the verdict
    warnings: tuple[SpecWarning, ...] = field(default=(), compare=False, repr=False)


@dataclass(frozen=True)
class Define:
    """`#define NAME value` (object-like macros with an integer-expression value only)."""

    name: str
    value: Term
    span: Span = field(compare=False, repr=False)


@dataclass(frozen=True)
class SpecFile:
    path: str
    kernels: tuple[KernelDef, ...]
    defines: tuple[Define, ...]


def assigned_names(s: Stmt) -> set[str]:
    """C names on the left of an assignment anywhere in `s` (before scoping)."""
    if isinstance(s, AssignStmt | IncDec):
        return {s.target.name}
    if isinstance(s, CallStmt):  # through a pointer (`f(&n)`): not uniform afterwards
        return set(s.havoc) | ({s.atomic.target.name} if s.atomic is not None else set())
    if isinstance(s, Block):
        return set().union(*(assigned_names(x) for x in s.stmts)) if s.stmts else set()
    if isinstance(s, IfStmt):
        out = assigned_names(s.then)
        return out | assigned_names(s.orelse) if s.orelse is not None else out
    if isinstance(s, WhileStmt):
        return assigned_names(s.body)
    if isinstance(s, ForStmt):
        parts = [x for x in (s.init, s.step, s.body) if x is not None]
        return set().union(*(assigned_names(x) for x in parts))
    return set()
