"""Derivations by weakest preconditions: the rules of the VC generator, emitting nodes.

`derive(P, m, ψ)` returns a derivation of {wp} m ⇒ P {ψ}, one function per rule:

- H-SKIP, H-SYNC (strict, §7: the precondition is `(\\all(m) || \\none(m)) && ψ`);
- H-ASSIGN: `\\forall x'; assign(x', m, x, [ē], e) ==> ψ[x'/x]`, x' a new primed variable;
- H-SEQ: the second statement first, its precondition is the first one's postcondition;
- H-IF with a new mask variable z: the else-branch under `m && !z` from ψ, the then-branch
  under `m && z` from there; the conclusion's precondition is the then-branch's with z
  replaced by e (z must not occur in it), and an H-CONSEQ turns `φ && \\all(e == z)` into it;
- H-WHILE with H-CONSEQ around: the invariant J is the loop's invariant clauses read at m,
  and the facts of the root precondition about variables the kernel never assigns (the
  VC generator keeps such facts by "havoc"; in a derivation they must be in the invariant).
  The body gets an H-CONSEQ from `J && \\all(e == z)`; the exit `J && \\none(m && e) → ψ`.
- H-ASSERT / H-ASSUME (extensions for the spec language's `assert` / `assume`), the
  clause read at the active threads (`read_active`: a global clause under m ≠ T is
  `!\\none(m) ==> φ`, so it says nothing where no thread runs). Loop invariants are read
  the same way.

The root is an H-CONSEQ from the kernel's contract. Side conditions are left to the checker.
"""

from __future__ import annotations

from .derivation import Node, Proof
from .formula import (
    AllNone,
    AssignP,
    F,
    FnForall,
    Mask,
    Name,
    PAssert,
    PAssign,
    PIf,
    Prog,
    PSeq,
    PSkip,
    PSync,
    PWhile,
    and_,
    conj,
    implies,
    mask_and,
    mask_def,
    mask_expr,
    sync_pre,
)
from .formula_ops import all_names, free_names, rename_var, subst_name
from .kernel import KernelInfo


class Generator:
    def __init__(self, info: KernelInfo) -> None:
        self.info = info
        self.primes: dict[str, int] = {}
        self.zs = 0
        self.frame = info.frame()

    def fresh_prime(self, x: str) -> str:
        self.primes[x] = self.primes.get(x, 0) + 1
        return f"{x}'{self.primes[x]}"

    def fresh_z(self) -> str:
        while True:
            self.zs += 1
            name = f"z{self.zs}"
            if name not in self.info.variables:
                return name

    def derive(self, p: Prog, m: Mask, post: F) -> Node:
        if isinstance(p, PSkip):
            return self.h_skip(p, m, post)
        if isinstance(p, PSync):
            return self.h_sync(p, m, post)
        if isinstance(p, PAssign):
            return self.h_assign(p, m, post)
        if isinstance(p, PSeq):
            return self.h_seq(p, m, post)
        if isinstance(p, PIf):
            return self.h_if(p, m, post)
        if isinstance(p, PWhile):
            return self.h_while(p, m, post)
        if isinstance(p, PAssert):
            return Node("H-ASSERT", and_(self.info.read_active(p.formula, m), post), m, p, post)
        return Node("H-ASSUME", implies(self.info.read_active(p.formula, m), post), m, p, post)

    def h_skip(self, p: PSkip, m: Mask, post: F) -> Node:
        return Node("H-SKIP", post, m, p, post)

    def h_sync(self, p: PSync, m: Mask, post: F) -> Node:
        return Node("H-SYNC", sync_pre(m, post), m, p, post)

    def h_assign(self, p: PAssign, m: Mask, post: F) -> Node:
        xp = self.fresh_prime(p.target)
        while xp in free_names(post):
            xp = self.fresh_prime(p.target)
        pred = AssignP(xp, mask_expr(m), p.target, p.indices, p.value)
        return Node("H-ASSIGN", FnForall(xp, implies(pred, rename_var(post, p.target, xp))), m, p, post)

    def h_seq(self, p: PSeq, m: Mask, post: F) -> Node:
        second = self.derive(p.second, m, post)
        first = self.derive(p.first, m, second.pre)
        return Node("H-SEQ", first.pre, m, p, post, [first, second])

    def h_if(self, p: PIf, m: Mask, post: F) -> Node:
        z = self.fresh_z()
        m_then, m_else = (*m, (z, True)), (*m, (z, False))
        orelse = self.derive(p.orelse, m_else, post)
        then = self.derive(p.then, m_then, orelse.pre)
        pre = subst_name(then.pre, z, p.cond)
        conseq = Node("H-CONSEQ", and_(pre, mask_def(p.cond, z)), m_then, p.then, orelse.pre, [then])
        return Node("H-IF", pre, m, p, post, [conseq, orelse])

    def h_while(self, p: PWhile, m: Mask, post: F) -> Node:
        invariant = conj([*(self.info.read_active(i, m) for i in p.invariants), *self.frame])
        z = self.fresh_z()
        while z in all_names(invariant) | all_names(post):
            z = self.fresh_z()
        m_body = (*m, (z, True))
        body = self.derive(p.body, m_body, invariant)
        entry = Node("H-CONSEQ", and_(invariant, mask_def(p.cond, z)), m_body, p.body, invariant, [body])
        exit_post = and_(invariant, AllNone(False, mask_and(m, p.cond)))
        loop = Node("H-WHILE", invariant, m, p, exit_post, [entry])
        return Node("H-CONSEQ", invariant, m, p, post, [loop])


def derive_kernel(info: KernelInfo) -> Proof:
    """The derivation of {requires} T ⇒ body {ensures} for a kernel."""
    gen = Generator(info)
    body = gen.derive(info.program, (), info.post)
    root = Node("H-CONSEQ", info.pre, (), info.program, info.post, [body])
    return Proof(info.path, info.name, info.threads, info.program_hash, root)


__all__ = ["Generator", "Name", "derive_kernel"]
