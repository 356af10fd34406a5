"""A kernel as a proof sees it: its program in the paper's syntax, its variables, its
contract read at all threads, and the hash that makes a proof stale when the program changes.

Loads specs with the parser, the lowering, loop unrolling and the monotonic-loop transform
only (never the VC generator), so the checker stays independent of it.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from .. import core
from ..errors import Span, UnsupportedError
from ..floats import FLOAT_BINOPS
from ..frontend import parse_file
from ..lower import lower_file
from ..term_walk import conjoin, conjuncts
from ..terms import (
    Access,
    Aggregate,
    Binary,
    BinOp,
    BlockCount,
    BlockId,
    Conditional,
    IntLit,
    QuantKind,
    Term,
    ThreadCount,
    ThreadId,
    ThreadPred,
    ThreadPredKind,
    Unary,
    UnOp,
    Var,
)
from ..terms import (
    At as TAt,
)
from ..terms import (
    Old as TOld,
)
from ..terms import (
    Quant as TQuant,
)
from ..transform import make_monotonic
from ..unroll import MissingInvariant, unroll
from .flat_launch import FlatLaunch, grid_term, per_block
from .formula import (
    Agg,
    AllNone,
    At,
    Bin,
    Cond,
    F,
    Name,
    Ntid,
    Num,
    Old,
    PAssert,
    PAssign,
    PAssume,
    PIf,
    Prog,
    PSeq,
    PSkip,
    PSync,
    PWhile,
    Quant,
    Un,
    conj,
)
from .formula_ops import all_names, current_vars, old_vars, read_active, read_at
from .syntax import show_prog

# the proof formula language has no bit operators and no floats
_NOT_IN_PROOFS = (BinOp.BAND, BinOp.BOR, BinOp.BXOR, *FLOAT_BINOPS)


def _not_in_proofs(t: Term, what: str) -> UnsupportedError:
    return UnsupportedError(
        f"{what} in a proof",
        t.span or Span("<kernel>", 1, 1),
        "proofs cover integer + - * / % << >> (by constants) and comparisons; 'hoaregpu verify' handles it",
    )


def from_term(t: Term, flat: FlatLaunch | None = None) -> F:
    """A spec Term as a proof formula (same meaning; spans dropped); `flat`: the launch's
    coordinates as functions of `tid` (None: one block along x)."""

    def go(x: Term) -> F:
        return from_term(x, flat)

    if isinstance(t, IntLit):
        return Num(t.value) if t.value >= 0 else Un(UnOp.NEG, Num(-t.value))
    if isinstance(t, Var):
        return Name(t.name, tuple(go(i) for i in t.indices))
    if isinstance(t, ThreadId | ThreadCount | BlockId | BlockCount):
        return grid_term(t, flat)
    if isinstance(t, Binary):
        if t.op in _NOT_IN_PROOFS:
            raise _not_in_proofs(t, f"operator '{t.op.value}'")
        return Bin(t.op, go(t.left), go(t.right))
    if isinstance(t, Unary):
        if t.op not in (UnOp.NEG, UnOp.NOT):
            raise _not_in_proofs(t, "floating-point values")
        return Un(t.op, go(t.operand))
    if isinstance(t, Conditional):
        return Cond(go(t.cond), go(t.then), go(t.orelse))
    if isinstance(t, TQuant):
        return Quant(t.kind is QuantKind.FORALL, t.names, go(t.body))
    if isinstance(t, TAt):
        per_block(t, flat, "'e @ t'")
        return At(go(t.term), go(t.thread))
    if isinstance(t, TOld):
        return Old(go(t.term))
    if isinstance(t, ThreadPred):
        per_block(t, flat, "'\\all'/'\\none'")
        return AllNone(t.kind is ThreadPredKind.ALL, go(t.term))
    if isinstance(t, Access):
        raise UnsupportedError(
            f"access fact '{t.kind.value}' in a proof",
            t.span or Span("<kernel>", 1, 1),
            "access facts speak of the race logs of 'hoaregpu verify' (docs/races.md)",
        )
    if isinstance(t, Aggregate):  # the checker's own translation: proof/smt_aggregates.py
        return Agg(t.kind, go(t.low), go(t.high), t.name, go(t.body))
    raise AssertionError(f"unexpected term {t!r}")


def from_stmt(s: core.Stmt, flat: FlatLaunch | None = None) -> Prog:
    """A core statement in the paper's syntax: `;` binary and right-nested (`flat`: as
    `from_term`)."""

    def term(x: Term) -> F:
        return from_term(x, flat)

    def stmt(x: core.Stmt) -> Prog:
        return from_stmt(x, flat)

    if isinstance(s, core.Assign):
        return PAssign(s.target, tuple(term(i) for i in s.indices), term(s.value))
    if isinstance(s, core.Skip):
        return PSkip()
    if isinstance(s, core.Sync):
        if s.grid and flat is None:
            raise UnsupportedError(
                "a grid barrier ('grid_group::sync()') in a proof",
                s.span or Span("<kernel>", 1, 1),
                "derivations (prove/check) cover one block along x; use `hoaregpu verify` for grids",
            )
        return PSync()
    if isinstance(s, core.Seq):
        parts = [stmt(x) for x in _flatten(s)]
        if not parts:
            return PSkip()
        out = parts[-1]
        for p in reversed(parts[:-1]):
            out = PSeq(p, out)
        return out
    if isinstance(s, core.If):
        return PIf(term(s.cond), stmt(s.then), stmt(s.orelse))
    if isinstance(s, core.Opaque):
        what = (
            "through its contract"
            if not s.declared_only and s.atomic is None
            else "(no body, or atomic) in a proof"
        )
        raise UnsupportedError(
            f"the call of '{s.function}' {what}",
            s.span or Span("<kernel>", 1, 1),
            "derivations (prove/check) have no rule for calls yet; use `hoaregpu verify`",
        )
    if isinstance(s, core.While):
        invs = tuple(term(f.term) for f in s.invariants)
        return PWhile(term(s.cond), stmt(s.body), invs)
    if isinstance(s, core.Assert):
        return PAssert(term(s.formula.term))
    if isinstance(s, core.Assume):
        return PAssume(term(s.formula.term))
    raise AssertionError(f"unexpected statement {s!r}")


def _flatten(s: core.Stmt) -> list[core.Stmt]:
    if isinstance(s, core.Seq):
        return [x for sub in s.stmts for x in _flatten(sub)]
    return [s]


def assigned(p: Prog) -> set[str]:
    if isinstance(p, PAssign):
        return {p.target}
    if isinstance(p, PSeq):
        return assigned(p.first) | assigned(p.second)
    if isinstance(p, PIf):
        return assigned(p.then) | assigned(p.orelse)
    if isinstance(p, PWhile):
        return assigned(p.body)
    return set()


def annotation_formulas(p: Prog) -> list[F]:
    if isinstance(p, PSeq):
        return annotation_formulas(p.first) + annotation_formulas(p.second)
    if isinstance(p, PIf):
        return annotation_formulas(p.then) + annotation_formulas(p.orelse)
    if isinstance(p, PWhile):
        return [*p.invariants, *annotation_formulas(p.body)]
    if isinstance(p, PAssert | PAssume):
        return [p.formula]
    return []


@dataclass(frozen=True)
class VarInfo:
    local: bool
    dim: int


@dataclass(frozen=True)
class KernelInfo:
    path: str
    name: str
    variables: dict[str, VarInfo]
    params: tuple[str, ...]
    nonnegative: frozenset[str]
    requires: tuple[F, ...]
    ensures: tuple[F, ...]
    program: Prog  # after the monotonic-loop transform, with loop invariants attached
    threads: int | None
    boolean: frozenset[str] = frozenset()  # `bool` parameters: 0 or 1 on entry
    # loops without invariant that were not unrolled (`prove` says they were taken as `true`)
    missing_invariants: tuple[MissingInvariant, ...] = ()

    def is_local(self, name: str) -> bool:
        v = self.variables.get(name.split("'", 1)[0])
        return v is not None and v.local

    @property
    def program_hash(self) -> str:
        """sha256 of the variables' kinds and dimensions and the program (without loop
        invariants, which a proof chooses for itself)."""
        lines = [f"{n} {'local' if v.local else 'shared'} {v.dim}" for n, v in sorted(self.variables.items())]
        lines.append(show_prog(self.program))
        return "sha256:" + hashlib.sha256("\n".join(lines).encode()).hexdigest()[:16]

    def avoid(self) -> set[str]:
        return set(self.variables)

    def read(self, phi: F, m: tuple[tuple[str, bool], ...] = ()) -> F:
        return read_at(phi, m, self.is_local, self.avoid())

    def read_active(self, phi: F, m: tuple[tuple[str, bool], ...]) -> F:
        """An assert/assume/invariant clause at m: says nothing when no thread is active."""
        return read_active(phi, m, self.is_local, self.avoid())

    def pre_parts(self) -> list[F]:
        """The root's precondition, conjunct by conjunct (proofs/README.md):
        entry facts of the launch, `\\old(x) == x` for each x read under `\\old`, requires."""
        parts: list[F] = []
        for p in self.params:
            v = self.variables[p]
            if v.dim:
                continue
            if v.local:
                t = _fresh("t", self.avoid())
                rng = Bin(BinOp.AND, Bin(BinOp.LE, Num(0), Name(t)), Bin(BinOp.LT, Name(t), Ntid()))
                same = Bin(BinOp.EQ, At(Name(p), Name(t)), At(Name(p), Num(0)))
                parts.append(Quant(True, (t,), Bin(BinOp.IMPLIES, rng, same)))
                parts += self._type_range(p, At(Name(p), Num(0)))
            else:
                parts += self._type_range(p, Name(p))
        olds: set[str] = set()
        for f in (*self.requires, *self.ensures, *annotation_formulas(self.program)):
            olds |= {n for n in old_vars(f) if n in self.variables}
        for x in sorted(olds):
            parts.append(self._old_equality(x))
        parts += [self.read(f) for f in self.requires]
        return parts

    def _old_equality(self, x: str) -> F:
        v = self.variables[x]
        avoid = self.avoid()
        ns = []
        for k in range(v.dim):
            ns.append(_fresh(f"n{k + 1}", avoid))
        cell = Name(x, tuple(Name(n) for n in ns))
        if v.local:
            t = _fresh("t", avoid)
            eq: F = Bin(BinOp.EQ, At(Old(cell), Name(t)), At(cell, Name(t)))
            ns = [t, *ns]
        else:
            eq = Bin(BinOp.EQ, Old(cell), cell)
        return Quant(True, tuple(ns), eq) if ns else eq

    def _type_range(self, p: str, value: F) -> list[F]:
        """The range of a parameter's C type, as the VC generator's entry facts: `p >= 0` for
        `unsigned`, `0 <= p`, `p <= 1` for `bool` (never both: a type is one or the other)."""
        if p in self.boolean:
            return [Bin(BinOp.LE, Num(0), value), Bin(BinOp.LE, value, Num(1))]
        if p in self.nonnegative:
            return [Bin(BinOp.GE, value, Num(0))]
        return []

    @property
    def pre(self) -> F:
        return conj(self.pre_parts())

    @property
    def post(self) -> F:
        return conj(self.read(f) for f in self.ensures)

    def frame(self) -> list[F]:
        """Conjuncts of the root precondition about variables the program never assigns:
        true everywhere in the program, so added to every loop invariant."""
        changed = assigned(self.program)
        return [f for f in self.pre_parts() if not (current_vars(f) & changed)]


def _fresh(base: str, avoid: set[str]) -> str:
    k = 0
    name = base
    while name in avoid:
        k += 1
        name = f"{base}.{k}"
    return name


def _without_one_block(t: Term) -> Term | None:
    """`t` without its top-level conjuncts `gridDim.<axis> == 1` (None: nothing left): a
    derivation is of one block, which they say (`requires gridDim.x == 1;` states that a
    kernel reading no block index runs as one block, for its race checks: docs/races.md)."""
    parts = [
        c
        for c in conjuncts(t)
        if not (
            isinstance(c, Binary)
            and c.op is BinOp.EQ
            and {type(c.left), type(c.right)} == {BlockCount, IntLit}
            and IntLit(1) in (c.left, c.right)
        )
    ]
    return conjoin(parts) if parts else None


def kernel_info(path: str, kernel: core.Kernel) -> KernelInfo:
    """The kernel as the proof checker sees it (UnsupportedError for what derivations do not
    cover yet: grids, several thread dimensions)."""
    # as `verify` does by default: a loop without invariant with a constant trip count is proved
    # as the sequence of its iterations (the program hashed and checked is the unrolled one)
    unrolled = unroll(kernel, kernel.launch)
    kernel = make_monotonic(unrolled.kernel)
    flat = FlatLaunch.of(kernel)
    variables = {d.name: VarInfo(d.kind is core.VarKind.LOCAL, d.dim) for d in kernel.decls}
    requires = [t for f in kernel.requires if (t := _without_one_block(f.term)) is not None]
    nonneg = frozenset(d.name for d in kernel.decls if d.nonnegative)
    boolean = frozenset(d.name for d in kernel.decls if d.boolean)
    return KernelInfo(
        path=path,
        name=kernel.name,
        variables=variables,
        params=kernel.params,
        nonnegative=nonneg,
        requires=tuple(from_term(t, flat) for t in requires),
        ensures=tuple(from_term(f.term, flat) for f in kernel.ensures),
        program=from_stmt(kernel.body, flat),
        threads=kernel.fixed_threads if flat is None else flat.threads,
        boolean=boolean,
        missing_invariants=unrolled.missing,
    )


def load_kernels(path: str) -> list[KernelInfo]:
    """Every kernel of a spec file (raises SpecError for a bad file)."""
    return [kernel_info(path, k) for k in lower_file(parse_file(path))]


__all__ = ["KernelInfo", "VarInfo", "all_names", "from_stmt", "from_term", "kernel_info", "load_kernels"]
