"""Adversarial review of the proof checker: proofs of false quadruples must be rejected.

Each test writes a small kernel whose contract is false, and a hand-made derivation that
exploits one weakness of the checker; the checker must not accept it.
"""

from __future__ import annotations

from pathlib import Path

from hoaregpu.proof.checker import check_proof
from hoaregpu.proof.derivation import parse_proof
from hoaregpu.proof.kernel import load_kernels
from hoaregpu.solvers import SolverOptions

FAST = SolverOptions(timeout=10)


def _check(tmp_path: Path, name: str, cu: str, body: str) -> int:
    spec = tmp_path / f"{name}.cu"
    spec.write_text(cu)
    (info,) = load_kernels(str(spec))
    threads = "any" if info.threads is None else str(info.threads)
    text = (
        f"format: hoaregpu-proof 1\nspec: {spec}\nkernel: {name}\nthreads: {threads}\n"
        f"program: {info.program_hash}\n\n{body}"
    )
    path = tmp_path / f"{name}.proof"
    path.write_text(text)
    return check_proof(parse_proof(text, str(path)), "z3", FAST).exit_code


# k := 0; k := k + 1; out[tid] := k  does not establish out[tid] == 100.
WRONG_INC = """/*@ ensures out[threadIdx.x] == 100; */
__global__ void wrong_inc(int *out) {
    int k = 0;
    k = k + 1;
    out[threadIdx.x] = k;
}
"""
POST = r"\forall int t; 0 <= t && t < ntid ==> (out[tid] == 100) @ t"
POST1 = r"\forall int t; 0 <= t && t < ntid ==> (out'1[tid] == 100) @ t"
R = rf"\forall out'1; assign(out'1, 1, out, [tid], k) ==> ({POST1})"
R1 = rf"\forall out'1; assign(out'1, 1, out, [tid], k'1) ==> ({POST1})"  # R[k'1/k]


def _inc_proof(psi: str, bad: str) -> str:
    return f"""H-CONSEQ
  pre: 1
  mask: T
  prog: k := 0; k := k + 1; out[tid] := k
  post: {POST}
  H-SEQ
    pre: {bad}
    mask: T
    prog: k := 0; k := k + 1; out[tid] := k
    post: {POST}
    H-ASSIGN
      pre: {bad}
      mask: T
      prog: k := 0
      post: {psi}
    H-SEQ
      pre: {psi}
      mask: T
      prog: k := k + 1; out[tid] := k
      post: {POST}
      H-ASSIGN
        pre: {psi}
        mask: T
        prog: k := k + 1
        post: {R}
      H-ASSIGN
        pre: {R}
        mask: T
        prog: out[tid] := k
        post: {POST}
"""


def test_assign_x_prime_bound_in_post_is_captured(tmp_path: Path) -> None:
    """H-ASSIGN with x' = k'1 although φ binds `\\forall k'1`: the checker's φ[k'1/k] renamed
    the k inside that binder's scope, so `assign(k'1, 1, k, [], k + 1)` became the
    unsatisfiable `assign(k'1, 1, k'1, [], k'1 + 1)` and the precondition valid."""
    psi = rf"\forall k'1; assign(k'1, 1, k, [], k + 1) ==> ({R1})"
    bad = (
        rf"\forall k'1; assign(k'1, 1, k, [], 0) ==> "
        rf"(\forall k'1; assign(k'1, 1, k'1, [], k'1 + 1) ==> ({R1}))"
    )
    assert _check(tmp_path, "wrong_inc", WRONG_INC, _inc_proof(psi, bad)) != 0


def test_assign_x_prime_bound_integer_in_post_is_captured(tmp_path: Path) -> None:
    """The same capture by a bound integer named like x': `\\forall int k'1` in φ."""
    cu = """/*@ ensures out[threadIdx.x] == 100; */
__global__ void wrong_int(int *out) {
    int k = 0;
    out[threadIdx.x] = k;
}
"""
    post1 = r"\forall int t; 0 <= t && t < ntid ==> (out'1[tid] == 100) @ t"
    # φ = ∀int k'1. k'1 == 100 → ∀out'1. assign(out'1, .., k) → post1: φ ≡ k == 100 everywhere,
    # but the captured φ[k'1/k] writes the bound k'1 (= 100): valid.
    phi = rf"\forall int k'1; k'1 == 100 ==> (\forall out'1; assign(out'1, 1, out, [tid], k) ==> ({post1}))"
    bad = (
        rf"\forall k'1; assign(k'1, 1, k, [], 0) ==> (\forall int k'1; k'1 == 100 ==> "
        rf"(\forall out'1; assign(out'1, 1, out, [tid], k'1) ==> ({post1})))"
    )
    body = f"""H-CONSEQ
  pre: 1
  mask: T
  prog: k := 0; out[tid] := k
  post: {POST}
  H-SEQ
    pre: {bad}
    mask: T
    prog: k := 0; out[tid] := k
    post: {POST}
    H-ASSIGN
      pre: {bad}
      mask: T
      prog: k := 0
      post: {phi}
    H-CONSEQ
      pre: {phi}
      mask: T
      prog: out[tid] := k
      post: {POST}
      H-ASSIGN
        pre: {R}
        mask: T
        prog: out[tid] := k
        post: {POST}
"""
    assert _check(tmp_path, "wrong_int", cu, body) != 0
