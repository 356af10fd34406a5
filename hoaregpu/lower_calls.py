"""Lowering the calls the verifier does not look into (`syntax.CallStmt`, from
hoaregpu/frontend/calls.py) to `core.Opaque`: names resolved, the atomic's terms lowered
with the checks their evaluation needs (they run first, as for an assignment)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from . import core, syntax
from .errors import SpecError, UnsupportedError
from .terms import Term


class _Lowering(Protocol):
    path: str

    def lookup(self, c_name: str) -> str | None: ...
    def term(self, t: Term) -> Term: ...
    def evaluated(self, *terms: Term) -> tuple[core.Stmt, list[Term]]: ...
    def in_rows(self, name: str, indices: Sequence[Term]) -> tuple[Term, ...]: ...


def lower_call(
    lw: _Lowering, s: syntax.CallStmt, decl: Callable[[str], core.VarDecl]
) -> tuple[core.Stmt, core.Opaque]:
    """The checks to run first and the call."""

    def resolve(name: str) -> str:
        found = lw.lookup(name)
        if found is None:
            raise SpecError(f"unknown variable '{name}'", s.span)
        return found

    havoc = [resolve(n) for n in s.havoc]
    result = resolve(s.result) if s.result is not None else None
    if s.atomic is None:
        if result is not None:
            havoc.append(result)
        body = core.Opaque(core.Skip(s.span), s.function, s.span, tuple(dict.fromkeys(havoc)), True)
        return core.Skip(), body
    a = s.atomic
    target = resolve(a.target.name)
    d = decl(target)
    if d.kind is not core.VarKind.SHARED:
        raise UnsupportedError(
            f"'{s.function}' on the thread's own variable '{a.target.name}'",
            s.span,
            "atomics act on global or __shared__ memory",
        )
    if len(a.target.indices) != d.dim:
        raise SpecError(
            f"'{a.target.name}' has {d.dim} dimension(s) but is addressed with "
            f"{len(a.target.indices)} index(es)",
            s.span,
        )
    assert result is not None
    indices = lw.in_rows(target, [lw.term(t) for t in a.target.indices])
    checks, lowered = lw.evaluated(*indices, *(lw.term(t) for t in a.operands))
    n = len(a.target.indices)
    update = core.AtomicUpdate(
        a.op, target, tuple(lowered[:n]), tuple(lowered[n:]), result, a.bits, a.floating
    )
    return checks, core.Opaque(core.Skip(s.span), s.function, s.span, (target, result), atomic=update)
