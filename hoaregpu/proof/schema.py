"""Rule schemas: is a node an instance of its rule (Fig. 2, strict H-SYNC), is the root the kernel's."""

from __future__ import annotations

from ..terms import BinOp
from .derivation import RULES, Node, Proof
from .formula import (
    AllNone,
    AssignP,
    Bin,
    F,
    FnForall,
    PAssert,
    PAssign,
    PAssume,
    PIf,
    PSeq,
    PSkip,
    PSync,
    PWhile,
    and_,
    implies,
    mask_and,
    mask_def,
    mask_expr,
    show_mask,
    sync_pre,
)
from .formula_ops import all_names, alpha_eq, base_var, free_names, is_primed, rename_var
from .kernel import KernelInfo
from .syntax import show, show_prog


class NodeError(Exception):
    pass


def _short(f: F, limit: int = 160) -> str:
    text = show(f)
    return text if len(text) <= limit else text[: limit - 3] + "..."


# ---------------------------------------------------------------- rule schemas


def _need(cond: bool, reason: str) -> None:
    if not cond:
        raise NodeError(reason)


def _same(a: F, b: F, what: str) -> None:
    if not alpha_eq(a, b):
        raise NodeError(f"{what}: expected `{_short(b)}`, found `{_short(a)}`")


def _premises(n: Node, k: int) -> list[Node]:
    _need(len(n.premises) == k, f"{n.rule} has {k} premise{'s' if k != 1 else ''}, found {len(n.premises)}")
    return n.premises


def _extended(n: Node, p: Node, positive: bool, which: str) -> str:
    """The z of a premise mask `m && z` (positive) or `m && !z`."""
    want = f"{show_mask(n.mask)} && {'' if positive else '!'}z"
    ok = len(p.mask) == len(n.mask) + 1 and p.mask[:-1] == n.mask and p.mask[-1][1] == positive
    _need(ok, f"the mask of the {which} premise must be `{want}` for a fresh z, found `{show_mask(p.mask)}`")
    return p.mask[-1][0]


def _fresh_z(n: Node, z: str, program_vars: set[str]) -> None:
    _need(z not in program_vars, f"z = {z} occurs in the program (it must be a fresh variable)")
    clash = [w for w, f in (("precondition", n.pre), ("postcondition", n.post)) if z in free_names(f)]
    if any(name == z for name, _ in n.mask):
        clash.append("mask")
    _need(not clash, f"z = {z} is not fresh: it occurs in the conclusion's {' and '.join(clash)}")


def check_node(n: Node, info: KernelInfo) -> None:
    """Is `n` an instance of its rule (premises are checked on their own)? NodeError if not."""
    program_vars = set(info.variables)
    _need(n.rule in RULES, f"unknown rule {n.rule} (rules: {', '.join(RULES)})")
    for z, _ in n.mask:
        _need(
            z not in program_vars, f"mask variable {z} is a program variable (masks use fresh variables only)"
        )
        _need(not is_primed(z), f"mask variable {z} is primed (masks use fresh variables only)")
    p, r = n.prog, n.rule
    if r == "H-CONSEQ":
        (q,) = _premises(n, 1)
        _need(q.mask == n.mask, "H-CONSEQ keeps the mask of its premise")
        _need(q.prog == p, "H-CONSEQ keeps the program of its premise")
        return
    if r == "H-SKIP":
        _need(isinstance(p, PSkip), f"H-SKIP is for `skip`, not `{show_prog(p)}`")
        _premises(n, 0)
        _same(n.pre, n.post, "H-SKIP: the precondition is the postcondition")
    elif r == "H-SYNC":
        _need(isinstance(p, PSync), f"H-SYNC is for `sync`, not `{show_prog(p)}`")
        _premises(n, 0)
        _same(
            n.pre,
            sync_pre(n.mask, n.post),
            "H-SYNC (strict, §7): the precondition is (all(m) || none(m)) && φ",
        )
    elif r == "H-ASSIGN":
        _need(isinstance(p, PAssign), f"H-ASSIGN is for an assignment, not `{show_prog(p)}`")
        assert isinstance(p, PAssign)
        _premises(n, 0)
        pre = n.pre
        body = pre.body if isinstance(pre, FnForall) else None
        shape = isinstance(body, Bin) and body.op is BinOp.IMPLIES and isinstance(body.left, AssignP)
        _need(shape, "H-ASSIGN: the precondition must be `\\forall x'; assign(x', m, x, [ē], e) ==> φ[x'/x]`")
        assert isinstance(pre, FnForall)
        xp = pre.name
        _need(
            is_primed(xp) and base_var(xp) == p.target,
            f"H-ASSIGN: x' must be a primed {p.target}, like {p.target}'1",
        )
        # Not even bound: φ[x'/x] would be captured by a `\forall x'` or `\forall int x'` in φ.
        _need(
            xp not in all_names(n.post), f"H-ASSIGN: x' = {xp} is not fresh: it occurs in the postcondition"
        )
        expected = FnForall(
            xp,
            implies(
                AssignP(xp, mask_expr(n.mask), p.target, p.indices, p.value), rename_var(n.post, p.target, xp)
            ),
        )
        _same(
            pre,
            expected,
            "H-ASSIGN: the precondition is not `\\forall x'; assign(x', m, x, [ē], e) ==> φ[x'/x]`",
        )
    elif r == "H-SEQ":
        _need(isinstance(p, PSeq), f"H-SEQ is for `P; Q`, not `{show_prog(p)}`")
        assert isinstance(p, PSeq)
        a, b = _premises(n, 2)
        _need(a.mask == n.mask and b.mask == n.mask, "H-SEQ: both premises have the conclusion's mask")
        _need(a.prog == p.first, f"H-SEQ: the first premise is for `{show_prog(p.first)}`")
        _need(b.prog == p.second, f"H-SEQ: the second premise is for `{show_prog(p.second)}`")
        _same(a.pre, n.pre, "H-SEQ: the first premise's precondition is the conclusion's")
        _same(b.pre, a.post, "H-SEQ: the middle assertions do not match (second premise's precondition)")
        _same(b.post, n.post, "H-SEQ: the second premise's postcondition is the conclusion's")
    elif r == "H-IF":
        _need(isinstance(p, PIf), f"H-IF is for `if e then P else Q fi`, not `{show_prog(p)}`")
        assert isinstance(p, PIf)
        a, b = _premises(n, 2)
        z = _extended(n, a, True, "first")
        z2 = _extended(n, b, False, "second")
        _need(z == z2, f"H-IF: both premises must use the same z (found {z} and {z2})")
        _fresh_z(n, z, program_vars)
        _need(a.prog == p.then, f"H-IF: the first premise is for the then-branch `{show_prog(p.then)}`")
        _need(b.prog == p.orelse, f"H-IF: the second premise is for the else-branch `{show_prog(p.orelse)}`")
        _same(a.pre, and_(n.pre, mask_def(p.cond, z)), "H-IF: the first premise's precondition is φ && e = z")
        _same(b.pre, a.post, "H-IF: the second premise must start from the first premise's postcondition")
        _same(b.post, n.post, "H-IF: the second premise's postcondition is the conclusion's")
    elif r == "H-WHILE":
        _need(isinstance(p, PWhile), f"H-WHILE is for `while e do P done`, not `{show_prog(p)}`")
        assert isinstance(p, PWhile)
        (a,) = _premises(n, 1)
        z = _extended(n, a, True, "")
        _fresh_z(n, z, program_vars)
        _need(a.prog == p.body, f"H-WHILE: the premise is for the body `{show_prog(p.body)}`")
        _same(a.pre, and_(n.pre, mask_def(p.cond, z)), "H-WHILE: the premise's precondition is I && e = z")
        _same(a.post, n.pre, "H-WHILE: the premise's postcondition is the invariant I")
        post = and_(n.pre, AllNone(False, mask_and(n.mask, p.cond)))
        _same(n.post, post, "H-WHILE: the postcondition must be I && \\none(m && e)")
    elif r == "H-ASSERT":
        _need(isinstance(p, PAssert), f"H-ASSERT is for `assert {{φ}}`, not `{show_prog(p)}`")
        assert isinstance(p, PAssert)
        _premises(n, 0)
        _same(
            n.pre,
            and_(info.read_active(p.formula, n.mask), n.post),
            "H-ASSERT: the precondition is φ (at the active threads of m) && ψ",
        )
    elif r == "H-ASSUME":
        _need(isinstance(p, PAssume), f"H-ASSUME is for `assume {{φ}}`, not `{show_prog(p)}`")
        assert isinstance(p, PAssume)
        _premises(n, 0)
        _same(
            n.pre,
            implies(info.read_active(p.formula, n.mask), n.post),
            "H-ASSUME: the precondition is φ (at the active threads of m) ==> ψ",
        )


def check_root(proof: Proof, info: KernelInfo) -> None:
    root = proof.root
    _need(root.mask == (), f"the root's mask must be T, found `{show_mask(root.mask)}`")
    _need(root.prog == info.program, f"the root's program is not the kernel's: `{show_prog(info.program)}`")
    _same(
        root.pre,
        info.pre,
        "the root's precondition is not the kernel's contract (requires, read at all threads)",
    )
    _same(
        root.post,
        info.post,
        "the root's postcondition is not the kernel's contract (ensures, read at all threads)",
    )
