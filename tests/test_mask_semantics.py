"""`assert`/`assume` (and loop invariants) under a mask: one semantics, three readers.

A clause of a statement speaks of the threads active where it stands; where no thread
is active it says nothing (README, "Specification part"). A global φ under mask m is
`(∃t ∈ m) → φ`, both as an obligation and as a fact. Each case goes through all three
readers of the semantics: `verify` (the VC generator), `prove` + `check` (the proof
generator and the independent checker's rule schemas) and `run` (the lockstep and the
interleaving interpreters), on the same kernel. Wrong kernels carry an input on which
the interpreter shows the violation; correct ones must verify, prove and run clean.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from hoaregpu.cli import main
from hoaregpu.proof.checker import check_proof, structure
from hoaregpu.proof.derivation import parse_proof, render
from hoaregpu.proof.formula import PAssume, implies
from hoaregpu.proof.generate import derive_kernel
from hoaregpu.proof.kernel import load_kernels
from hoaregpu.solvers import SolverOptions

VERIFIED, FAILED = 0, 1


@dataclass(frozen=True)
class Case:
    name: str
    src: str
    wrong: bool
    # a witness for a wrong kernel (threads, inputs), or inputs a correct one runs clean on
    threads: int
    inputs: dict[str, Any]


ASSUME_UNDER_CONDITION = Case(
    "assume_under_condition",
    """\
/*@ ensures out[0] > 0; */
__global__ void k(int *out, int n) {
    if (n > 0) {
        //@ assume n > 0;
    }
    if (threadIdx.x == 0) { out[0] = n; }
}
""",
    wrong=True,
    threads=1,
    inputs={"out": [0], "n": -1},
)

ASSUME_FALSE_NO_THREAD = Case(
    "assume_false_no_thread",
    """\
/*@ ensures out[0] == 1; */
__global__ void k(int *out) {
    if (threadIdx.x >= blockDim.x) {
        //@ assume false;
    }
    if (threadIdx.x == 0) { out[0] = 0; }
}
""",
    wrong=True,
    threads=2,
    inputs={"out": [0]},
)

NESTED_IFS = Case(
    "nested_ifs",
    """\
/*@ ensures out[0] == n; */
__global__ void k(int *out, int n) {
    if (n > 0) {
        if (threadIdx.x == 0) {
            if (n > 5) {
                //@ assume out[0] == n;
            }
        }
    }
}
""",
    wrong=True,
    threads=2,
    inputs={"out": [0], "n": 3},
)

# The mask of the loop body becomes empty: the `if` inside is taken by no thread, and
# its `assume false` used to make the bogus invariant "preserved".
LOOP_MASK_EMPTY = Case(
    "loop_mask_empty",
    """\
/*@ requires n == 1;
    ensures out[0] == 5; */
__global__ void k(int *out, int n) {
    int i = 0;
    //@ loop invariant i == 0 || out[0] == 5;
    while (i < n) {
        i = i + 1;
        if (threadIdx.x >= blockDim.x) {
            //@ assume false;
        }
    }
}
""",
    wrong=True,
    threads=2,
    inputs={"out": [0], "n": 1},
)

# A loop no thread enters: the assume in its body is never executed.
LOOP_NEVER_ENTERED = Case(
    "loop_never_entered",
    """\
/*@ ensures out[0] > 0; */
__global__ void k(int *out, int n) {
    int i = 0;
    //@ loop invariant i == 0 || n > 0;
    while (i < n) {
        //@ assume n > 0;
        i = i + 1;
    }
    if (threadIdx.x == 0) { out[0] = n; }
}
""",
    wrong=True,
    threads=1,
    inputs={"out": [0], "n": 0},
)

# An assertion under an empty mask is no obligation (it used to be one: `false` refuted) ...
ASSERT_NO_THREAD_OK = Case(
    "assert_no_thread_ok",
    """\
/*@ ensures out[threadIdx.x] == 1; */
__global__ void k(int *out) {
    if (threadIdx.x >= blockDim.x) {
        //@ assert false;
    }
    out[threadIdx.x] = 1;
}
""",
    wrong=False,
    threads=3,
    inputs={},
)

# ... and no fact either: what follows cannot lean on it.
ASSERT_NO_THREAD_NOT_ASSUMED = Case(
    "assert_no_thread_not_assumed",
    """\
/*@ ensures out[0] == 7; */
__global__ void k(int *out) {
    if (threadIdx.x >= blockDim.x) {
        //@ assert false;
    }
    if (threadIdx.x == 0) { out[0] = 1; }
}
""",
    wrong=True,
    threads=1,
    inputs={"out": [0]},
)

# Under a non-empty mask a global assertion is still checked.
ASSERT_ACTIVE_CHECKED = Case(
    "assert_active_checked",
    """\
/*@ ensures true; */
__global__ void k(int *out, int n) {
    if (n > 0) {
        //@ assert n > 5;
    }
    out[threadIdx.x] = n;
}
""",
    wrong=True,
    threads=2,
    inputs={"n": 1},
)

# A global assume under a non-empty mask is still a fact (the reading is not too weak).
ASSUME_ACTIVE_USED = Case(
    "assume_active_used",
    """\
/*@ ensures out[0] > 0; */
__global__ void k(int *out, int n) {
    if (threadIdx.x == 0) {
        //@ assume n > 0;
        out[0] = n;
    }
}
""",
    wrong=False,
    threads=2,
    inputs={"n": 4},
)

CASES = [
    ASSUME_UNDER_CONDITION,
    ASSUME_FALSE_NO_THREAD,
    NESTED_IFS,
    LOOP_MASK_EMPTY,
    LOOP_NEVER_ENTERED,
    ASSERT_NO_THREAD_OK,
    ASSERT_NO_THREAD_NOT_ASSUMED,
    ASSERT_ACTIVE_CHECKED,
    ASSUME_ACTIVE_USED,
]
IDS = [c.name for c in CASES]


def _write(tmp_path: Path, case: Case) -> Path:
    path = tmp_path / f"{case.name}.cu"
    path.write_text(case.src, encoding="utf-8")
    return path


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_verify(tmp_path: Path, case: Case) -> None:
    code = main(["verify", str(_write(tmp_path, case)), "--no-cache", "--no-replay"])
    assert code == (FAILED if case.wrong else VERIFIED)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_prove_and_check(tmp_path: Path, case: Case) -> None:
    """The generated derivation is checked: a wrong kernel's derivation has a side
    condition that is not proved; a correct one's checks (exit 0)."""
    (info,) = load_kernels(str(_write(tmp_path, case)))
    proof = parse_proof(render(derive_kernel(info)), f"<{case.name}>")
    code = check_proof(proof, "z3", SolverOptions(timeout=10)).exit_code
    assert (code != 0) if case.wrong else (code == 0)


@pytest.mark.parametrize("semantics", ["lockstep", "interleave"])
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_run(tmp_path: Path, case: Case, semantics: str, capsys: pytest.CaptureFixture[str]) -> None:
    """`hoaregpu run` (both semantics): a wrong kernel shows a violated clause on its
    witness input, a correct one runs clean."""
    path = str(_write(tmp_path, case))
    args = ["run", path, "--threads", str(case.threads), "--input", json.dumps(case.inputs)]
    code = main([*args, "--seed", "1", "--semantics", semantics, "--json"])
    doc = json.loads(capsys.readouterr().out)
    kinds = {v["kind"] for v in doc["violations"]}
    if case.wrong:
        assert (code, doc["status"]) == (FAILED, "failed"), doc["violations"]
        assert kinds & {"postcondition", "assertion", "loop-invariant"}
    else:
        assert (code, doc["status"]) == (VERIFIED, "ok"), doc["violations"]


def test_checker_rejects_an_unguarded_assume_under_a_mask(tmp_path: Path) -> None:
    """The old H-ASSUME schema (`φ ==> ψ` for a global φ under m ≠ T) is no longer an
    instance of the rule: a proof written to it is rejected by the structure check."""
    (info,) = load_kernels(str(_write(tmp_path, ASSUME_FALSE_NO_THREAD)))
    proof = parse_proof(render(derive_kernel(info)), "<p>")
    bad = copy.deepcopy(proof)
    node = next(n for n in bad.root.walk() if n.rule == "H-ASSUME")
    assert node.mask != ()
    assert isinstance(node.prog, PAssume)
    node.pre = implies(node.prog.formula, node.post)
    result, _ = structure(bad)
    assert any("H-ASSUME" in p.reason for p in result.problems), result.problems
