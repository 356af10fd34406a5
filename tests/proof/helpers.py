"""Shared helpers for the proof tests: fresh derivations, node lookup, tampering."""

from __future__ import annotations

import copy
from collections.abc import Callable

from hoaregpu.proof.checker import CheckResult, structure
from hoaregpu.proof.derivation import Node, Proof, parse_proof, render
from hoaregpu.proof.generate import derive_kernel
from hoaregpu.proof.kernel import load_kernels


def derived(spec: str) -> Proof:
    """The generated derivation, written out and read back (so nodes have line numbers)."""
    (info,) = load_kernels(spec)
    return parse_proof(render(derive_kernel(info)), f"<{spec}>")


def find(proof: Proof, rule: str, pred: Callable[[Node], bool] = lambda n: True) -> Node:
    for n in proof.root.walk():
        if n.rule == rule and pred(n):
            return n
    raise AssertionError(f"no {rule} node")


def tampered(proof: Proof, change: Callable[[Proof], None]) -> Proof:
    p = copy.deepcopy(proof)
    change(p)
    return p


def first_problem(proof: Proof) -> tuple[CheckResult, str, str, int]:
    result, _ = structure(proof)
    assert result.problems, "the tampered proof was accepted"
    p = result.problems[0]
    return result, p.kind, p.reason, p.line
