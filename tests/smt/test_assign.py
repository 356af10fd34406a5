"""`assign_update` (what the VC generator uses) is equivalent to `assign_paper` (Definition 3.5).

What "equivalent" means. `assign_paper(x', m, x, ē, e)` is a formula over x'; for a shared
target in general position, `assign_update(x', ...)` also mentions fresh Skolem functions W
(which cells are written) and w (which thread's write wins). H-ASSIGN uses the predicate
as the hypothesis `assign(x', ...) → φ[x'/x]`, valid for every x' (and every W, w, since
they are free). So the two VCs are equivalent iff, for every x',

    paper(x')  ⟺  ∃W, w. update(x', W, w).

(a) ⇐: `update → paper` is valid with x', W, w free. Checked by z3 directly.

(b) ⇒: paper(x') has the shape ∀n̄. A(n̄) ∨ ∃j. B(n̄, j). By Skolemization (choice),
paper(x') implies ∃w. ∀n̄. A(n̄) ∨ B(n̄, w(n̄)) =: paper_sk(x', w). So it is enough to give
W explicitly, W(n̄) := ∃i ∈ m. ē@i = n̄ (the cells some active thread writes), and prove
`paper_sk(x', w) → update(x', W, w)` valid for free x', w. paper_sk is made from
assign_paper's own formula (its ∃ replaced by the Skolem term), and W by substituting the
definition into assign_update's formula, so no part of either encoding is re-typed here.
Where no W/w exist (local targets, a shared target indexed by tid) (b) is plain
`paper → update`.

Both directions are checked with a symbolic thread count, and again with N fixed to 2 and
3 and every thread quantifier expanded (`hoaregpu.smt.expand`), where z3 decides them
without quantifier instantiation over threads. A mutation test shows the checks can fail.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from pipeline_kit import PROVED, REFUTED, decide, lower
from pysmt.environment import Environment
from pysmt.fnode import FNode
from pysmt.shortcuts import Exists, Implies
from pysmt.typing import INT
from pysmt.walkers import IdentityDagWalker

from hoaregpu.driver import fresh_env
from hoaregpu.parser import parse_expr
from hoaregpu.smt.assign import assign_paper, assign_update
from hoaregpu.smt.encode import Encoder, Mask
from hoaregpu.smt.expand import ExpandThreadQuantifiers
from hoaregpu.solvers import Outcome
from hoaregpu.terms import Term

KERNEL = lower(
    """
    __global__ void k(int *a, int t[][4]) {
        __shared__ int s;
        int x;
        int k;
        int buf[4];
    }
    """
)

# (target, indices, value): the encodings' cases.
CASES = {
    "shared a[tid]": ("a", ("tid",), "tid + 1"),
    "shared a[k], k local": ("a", ("k",), "k + tid"),
    "shared a[k % 2]": ("a", ("k % 2",), "a[k] - tid"),
    "shared scalar s": ("s", (), "tid"),
    "2-D shared t[tid][k]": ("t", ("tid", "k"), "k"),
    "local scalar x": ("x", (), "x + tid"),
    "local array buf[k]": ("buf", ("k",), "tid"),
}

MASKS: dict[str, Callable[[Encoder], Mask]] = {
    "T": lambda enc: Mask(),
    "z": lambda enc: Mask().conj(enc.fresh_thread_pred(), True),
    "z && !z2": lambda enc: Mask().conj(enc.fresh_thread_pred(), True).conj(enc.fresh_thread_pred(), False),
}


def _terms(case: str) -> tuple[str, tuple[Term, ...], Term]:
    target, indices, value = CASES[case]
    return target, tuple(parse_expr(i) for i in indices), parse_expr(value)


def _skolem_functions(update: FNode, target: str) -> tuple[FNode | None, FNode | None]:
    """The W and w symbols assign_update introduced (None when it needs none)."""
    free = update.get_free_variables()
    written = [s for s in free if s.symbol_name().startswith(f"{target}.W!")]
    writer = [s for s in free if s.symbol_name().startswith(f"{target}.w!")]
    assert len(written) == len(writer) <= 1
    return (written[0], writer[0]) if written else (None, None)


def _skolemize_paper(paper: FNode, writer: FNode, enc: Encoder) -> FNode:
    """∀n̄. A ∨ ∃j. B(n̄, j)  ↦  ∀n̄. A ∨ B(n̄, w(n̄)) (or A ∨ B(w) for a scalar)."""
    ns = list(paper.quantifier_vars()) if paper.is_forall() else []
    body = paper.arg(0) if paper.is_forall() else paper
    assert body.is_or()
    (exists,) = [g for g in body.args() if g.is_exists()]
    (j,) = exists.quantifier_vars()
    chosen = enc.apply(writer, ns)
    sk_body = body.substitute({exists: exists.arg(0).substitute({j: chosen})})
    return enc.mgr.ForAll(ns, sk_body) if ns else sk_body


class _DefineWritten(IdentityDagWalker):  # type: ignore[misc]
    """Replace W(n̄) by ∃i ∈ m. ē@i = n̄."""

    def __init__(self, env: Environment, written: FNode, define: Callable[[list[FNode]], FNode]) -> None:
        super().__init__(env=env, invalidate_memoization=True)
        self.written = written
        self.define = define

    def walk_function(self, formula: FNode, args: list[FNode], **kwargs: object) -> FNode:
        if formula.function_name() == self.written:
            return self.define(args)
        return self.mgr.Function(formula.function_name(), args)

    def walk_symbol(self, formula: FNode, args: object, **kwargs: object) -> FNode:
        return self.define([]) if formula == self.written else formula


def _obligations(
    env: Environment,
    threads: int | None,
    case: str,
    mask_name: str,
    value_override: str | None = None,
    nothing_written: bool = False,
) -> tuple[FNode, FNode]:
    """(update → paper, paper → update with W and w instantiated), both to be valid."""
    enc = Encoder(KERNEL, env, threads)
    mask = MASKS[mask_name](enc)
    target, indices, value = _terms(case)
    new = enc.fresh_like(target)
    paper_value = parse_expr(value_override) if value_override else value
    paper = assign_paper(enc, new, mask, target, indices, paper_value)
    update = assign_update(enc, new, mask, target, indices, value)
    forward = Implies(update, paper)
    written, writer = _skolem_functions(update, target)
    if written is None:
        backward = Implies(paper, update)
    else:
        assert writer is not None

        def define(args: list[FNode]) -> FNode:
            i = enc.fresh("i", INT)
            same = enc.mgr.And([enc.mgr.Equals(enc.at(e, i), a) for e, a in zip(indices, args, strict=True)])
            if nothing_written:  # a wrong witness, for the mutation test
                return enc.mgr.FALSE()
            return Exists([i], enc.mgr.And(enc.active(mask, i), same))

        instantiated = _DefineWritten(env, written, define).walk(update)
        backward = Implies(_skolemize_paper(paper, writer, enc), instantiated)
    if threads is not None:
        expand = ExpandThreadQuantifiers(env)
        forward, backward = expand.walk(forward), expand.walk(backward)
    return forward, backward


def _check(threads: int | None) -> dict[tuple[str, str, str], Outcome]:
    keys = []
    formulas = []
    with fresh_env() as env:
        for case in CASES:
            for mask_name in MASKS:
                fwd, bwd = _obligations(env, threads, case, mask_name)
                keys += [(case, mask_name, "update->paper"), (case, mask_name, "paper->update")]
                formulas += [fwd, bwd]
        outcomes = decide(formulas, timeout=20.0)
    return dict(zip(keys, outcomes, strict=True))


@pytest.mark.parametrize("threads", [None, 2, 3], ids=["symbolic N", "N=2", "N=3"])
def test_update_encoding_is_equivalent_to_definition_3_5(threads: int | None) -> None:
    results = _check(threads)
    failed = {k: v for k, v in results.items() if v is not PROVED}
    assert not failed


def test_scalar_shared_case_uses_skolem_functions_and_tid_case_does_not() -> None:
    # The point of the special tid case: no W/w; the general case must have them.
    with fresh_env() as env:
        enc = Encoder(KERNEL, env)
        for case, has_skolem in (("shared a[tid]", False), ("shared a[k], k local", True)):
            target, indices, value = _terms(case)
            update = assign_update(enc, enc.fresh_like(target), Mask(), target, indices, value)
            assert (_skolem_functions(update, target)[0] is not None) is has_skolem


@pytest.mark.parametrize("case", ["shared a[tid]", "shared a[k], k local", "local array buf[k]"])
def test_the_equivalence_check_can_fail(case: str) -> None:
    """A wrong value on the paper side must make update → paper refuted (N = 2)."""
    _, _, value = CASES[case]
    with fresh_env() as env:
        fwd, _ = _obligations(env, 2, case, "z", value_override=f"({value}) + 1")
        assert decide([fwd]) == [REFUTED]


@pytest.mark.parametrize("threads", [None, 2])
def test_the_backward_check_depends_on_the_witness_for_w(threads: int | None) -> None:
    """With W := false (no cell written) paper_sk → update must be refuted."""
    with fresh_env() as env:
        _, bwd = _obligations(env, threads, "shared a[k], k local", "T", nothing_written=True)
        assert decide([bwd]) == [REFUTED]


def test_paper_encoding_refutes_a_race_winner_that_update_also_refutes() -> None:
    """Both encodings give the same verdict on a race VC: two threads write 0 and 1 to
    a[0]; `a'[0] == 0` does not follow, `a'[0] == 0 || a'[0] == 1` does (N = 2)."""
    with fresh_env() as env:
        enc = Encoder(KERNEL, env, 2)
        m = enc.mgr
        idx, val = (parse_expr("0"),), parse_expr("tid")
        out = []
        for encode in (assign_paper, assign_update):
            new = enc.fresh_like("a")
            cell = m.Function(new, [m.Int(0)])
            hyp = encode(enc, new, Mask(), "a", idx, val)
            one = m.Equals(cell, m.Int(0))
            either = m.Or(one, m.Equals(cell, m.Int(1)))
            out += [Implies(hyp, one), Implies(hyp, either)]
        expand = ExpandThreadQuantifiers(env)
        assert decide([expand.walk(f) for f in out]) == [REFUTED, PROVED, REFUTED, PROVED]


GRID_KERNELS = {  # the coordinates a kernel reads are its threads' (hoaregpu.grid)
    "1-D": lower(
        """
        __global__ void g(int *a) {
            int k;
            a[k] = blockIdx.x + threadIdx.x;
        }
        """
    ),
    "2-D": lower(
        """
        __global__ void g(int *a, int t[][64], int u[][4][4]) {
            int k;
            a[k] = blockIdx.x + blockIdx.y + threadIdx.x + threadIdx.y;
        }
        """
    ),
}
_ROW = "(blockIdx.y * blockDim.y + threadIdx.y)"
_COL = "(blockIdx.x * blockDim.x + threadIdx.x)"
_1D = "blockIdx.x * blockDim.x + threadIdx.x"

# (kernel, target, indices, whether writers.writer_of names the writer with symbolic sizes, with fixed ones)
WRITER_CASES = {
    "a[gid]": ("1-D", "a", (_1D,), True, True),
    "a[tid + blockDim.x * blockIdx.x]": ("1-D", "a", ("threadIdx.x + blockDim.x * blockIdx.x",), True, True),
    "a[(bid + 1) * ntid + tid - ntid]": (
        "1-D",
        "a",
        ("(blockIdx.x + 1) * blockDim.x + threadIdx.x - blockDim.x",),
        True,
        True,
    ),
    "a[gid + 1]": ("1-D", "a", (f"{_1D} + 1",), True, True),  # thread n - 1 writes cell n
    "a[gid - 4]": ("1-D", "a", (f"{_1D} - 4",), True, True),
    "a[2 * gid + 1]": ("1-D", "a", (f"2 * ({_1D}) + 1",), True, True),  # a stride: cell 2n + 1 by n
    "a[3 - gid]": ("1-D", "a", (f"3 - ({_1D})",), True, True),
    "a[bid + tid]": ("1-D", "a", ("blockIdx.x + threadIdx.x",), False, False),
    "a[tid]": ("1-D", "a", ("threadIdx.x",), False, False),  # another block's thread writes the same cell
    "a[row * width + col]": ("2-D", "a", (f"{_ROW} * (gridDim.x * blockDim.x) + {_COL}",), False, True),
    "a[col * height + row]": ("2-D", "a", (f"{_COL} * (gridDim.y * blockDim.y) + {_ROW}",), False, True),
    "a[row * width + col + 1]": (
        "2-D",
        "a",
        (f"{_ROW} * (gridDim.x * blockDim.x) + {_COL} + 1",),
        False,
        True,
    ),
    "a[row * ntid.x + col]": ("2-D", "a", (f"{_ROW} * blockDim.x + {_COL}",), False, False),  # rows overlap
    "t[row][col]": ("2-D", "t", (_ROW, _COL), False, True),
    "t[block][thread]": (
        "2-D",
        "t",
        ("blockIdx.y * gridDim.x + blockIdx.x", "threadIdx.y * blockDim.x + threadIdx.x"),
        False,
        True,
    ),
    "t[ty][tx]": (
        "2-D",
        "t",
        ("threadIdx.y", "threadIdx.x"),
        False,
        False,
    ),  # every block writes the same cells
    "t[row][bx * ntid.x]": (
        "2-D",
        "t",
        (_ROW, "blockIdx.x * blockDim.x"),
        False,
        False,
    ),  # threadIdx.x is no digit
    "u[by*gx+bx][ty][tx + 1]": (
        "2-D",
        "u",
        ("blockIdx.y * gridDim.x + blockIdx.x", "threadIdx.y", "threadIdx.x + 1"),
        False,
        True,
    ),
    "u[bid][tx - 2][k]": (
        "2-D",
        "u",
        ("blockIdx.y * gridDim.x + blockIdx.x", "threadIdx.x - 2", "k"),
        False,
        False,
    ),
    "u[bid][ty][tx][tx]": (
        "2-D",
        "u",
        ("blockIdx.y * gridDim.x + blockIdx.x", "threadIdx.y * blockDim.x + threadIdx.x", "threadIdx.x"),
        False,
        True,
    ),
    "u[bid][2 * tx][ty]": (
        "2-D",
        "u",
        ("blockIdx.y * gridDim.x + blockIdx.x", "2 * threadIdx.x", "threadIdx.y"),
        False,
        True,
    ),
}


@pytest.mark.parametrize("case", list(WRITER_CASES))
@pytest.mark.parametrize("launch", [None, ((2, 2, 1), (2, 3, 1))], ids=["symbolic", "2x2 blocks, 2x3 grid"])
@pytest.mark.parametrize("mask_name", ["T", "z"])
def test_a_store_whose_indices_name_the_writer_needs_no_skolem_writer(
    case: str, launch: tuple[tuple[int, int, int], tuple[int, int, int]] | None, mask_name: str
) -> None:
    """`a[gid + 1]`, `s[ty][tx]` of a block, `c[row * width + col]` of a 2-D grid: the
    indices name the one thread that may write a cell (its number by div/mod), so no Skolem
    writer (z3 found no race model in minutes with one over 1024 x 1024 threads, and planted
    bugs in tiled kernels stayed undecided), and the encoding is still Definition 3.5's."""
    from hoaregpu.launch import Launch

    kernel, target, indices, symbolic, fixed = WRITER_CASES[case]
    named = fixed if launch else symbolic
    with fresh_env() as env:
        enc = Encoder(GRID_KERNELS[kernel], env, Launch(*launch) if launch else None)
        mask = MASKS[mask_name](enc)
        terms = tuple(parse_expr(i) for i in indices)
        new = enc.fresh_like(target)
        value = parse_expr("threadIdx.x + 7 * blockIdx.y")
        update = assign_update(enc, new, mask, target, terms, value)
        assert (_skolem_functions(update, target)[0] is None) is named
        if named and (launch is not None or mask_name == "T"):
            sizes = enc.mgr.And(enc.size_facts())  # every VC assumes them (vc/generate.py)
            paper = assign_paper(enc, new, mask, target, terms, value)
            wrong = assign_paper(
                enc, new, mask, target, terms, parse_expr("threadIdx.x + 7 * blockIdx.x + 1")
            )
            formulas = [
                Implies(sizes, f)
                for f in (Implies(update, paper), Implies(paper, update), Implies(update, wrong))
            ]
            if launch is not None:
                expand = ExpandThreadQuantifiers(env)
                formulas = [expand.walk(f) for f in formulas]
            assert decide(formulas, timeout=20.0) == [PROVED, PROVED, REFUTED]


# (kernel, target, indices, the branch condition that pins the coordinates no index holds)
PINNED_CASES = {
    "a[bid] under tx == 0": ("1-D", "a", ("blockIdx.x",), "threadIdx.x == 0"),
    "a[0] under tx == 1 && bx == 1": ("1-D", "a", ("0",), "threadIdx.x == 1 && blockIdx.x == 1"),
    "a[bid + 1] under tx == 5 (no such thread)": ("1-D", "a", ("blockIdx.x + 1",), "threadIdx.x == 5"),
    "a[bid] under k > 0 && 1 == tx": ("1-D", "a", ("blockIdx.x",), "k > 0 && 1 == threadIdx.x"),
    "u[bid][0][tx] under ty == 1": (
        "2-D",
        "u",
        ("blockIdx.y * gridDim.x + blockIdx.x", "0", "threadIdx.x"),
        "threadIdx.y == 1",
    ),
}


@pytest.mark.parametrize("case", list(PINNED_CASES))
def test_a_coordinate_pinned_by_the_branch_names_the_writer(case: str) -> None:
    """A halo store `s[0]` under `if (threadIdx.x == 0)`: the branch's condition fixes the
    coordinate no index holds, so the writer is named without a Skolem function, and the
    update is still Definition 3.5's given z's definition (H-IF); a wrong value is refuted."""
    from hoaregpu.launch import Launch

    kernel, target, indices, cond = PINNED_CASES[case]
    with fresh_env() as env:
        enc = Encoder(GRID_KERNELS[kernel], env, Launch((2, 2, 1), (2, 3, 1)))
        z = enc.fresh_thread_pred()
        hyps = enc.mgr.And(*enc.size_facts(), enc.define_thread_pred(z, parse_expr(cond)))
        mask = Mask().conj(z, True)
        terms = tuple(parse_expr(i) for i in indices)
        new = enc.fresh_like(target)
        value = parse_expr("threadIdx.x + 7 * blockIdx.y")
        update = assign_update(enc, new, mask, target, terms, value)
        assert _skolem_functions(update, target)[0] is None
        paper = assign_paper(enc, new, mask, target, terms, value)
        wrong = assign_paper(enc, new, mask, target, terms, parse_expr("threadIdx.x + 7 * blockIdx.y + 1"))
        expand = ExpandThreadQuantifiers(env)
        formulas = [
            expand.walk(Implies(hyps, f))
            for f in (Implies(update, paper), Implies(paper, update), Implies(update, wrong))
        ]
        expected = [PROVED, PROVED, PROVED if "no such thread" in case else REFUTED]
        assert decide(formulas, timeout=20.0) == expected


def test_a_negated_branch_pins_nothing() -> None:
    """`if (threadIdx.x == 0) ... else a[bid] = ...`: the else branch's literal is !z, which
    fixes no coordinate, so the writer stays a Skolem function."""
    from hoaregpu.launch import Launch

    with fresh_env() as env:
        enc = Encoder(GRID_KERNELS["1-D"], env, Launch((2, 2, 1), (2, 3, 1)))
        z = enc.fresh_thread_pred()
        enc.define_thread_pred(z, parse_expr("threadIdx.x == 0"))
        update = assign_update(
            enc, enc.fresh_like("a"), Mask().conj(z, False), "a", (parse_expr("blockIdx.x"),), parse_expr("1")
        )
        assert _skolem_functions(update, "a")[0] is not None


# WRITER_CASES of the 2-D kernel whose writer is named on a grid with an open number of block
# rows (`gridDim.y`, the outermost live coordinate: no index divides by its size)
OPEN_ROWS_NAMED = [
    "a[row * width + col]",
    "a[row * width + col + 1]",
    "t[row][col]",
    "t[block][thread]",
    "u[by*gx+bx][ty][tx + 1]",
    "u[bid][ty][tx][tx]",
    "u[bid][2 * tx][ty]",
]


@pytest.mark.parametrize("case", [c for c, v in WRITER_CASES.items() if v[0] == "2-D"])
def test_with_an_open_outermost_size_the_named_writer_is_the_thread_that_writes(case: str) -> None:
    """2 x 2 blocks on a grid 2 blocks wide and `gridDim.y` open. The quantified equivalence
    of the forms is beyond z3 there (div/mod under a thread quantifier, a symbolic bound), so
    its core is checked quantifier-free: any thread t of the grid is the named writer w(ē@t)
    of the cell it writes. Then the update agrees with Definition 3.5 (the writer's condition
    is that w is active and writes n̄, so a cell no active thread writes keeps its value). A
    writer one off is refuted."""
    from hoaregpu.launch import Launch
    from hoaregpu.smt.writers import writer_of

    kernel, _, indices, _, fixed = WRITER_CASES[case]
    with fresh_env() as env:
        enc = Encoder(GRID_KERNELS[kernel], env, Launch((2, 2, 1), (2, None, 1)))
        m = enc.mgr
        terms = tuple(parse_expr(i) for i in indices)
        t = m.Symbol("th", INT)
        named = writer_of(enc, terms, [enc.at(e, t) for e in terms], Mask())
        assert (named is not None) is (case in OPEN_ROWS_NAMED)
        if named is None:
            return
        assert fixed  # what is named on the open grid is named on the fixed one
        thread = m.And(*enc.size_facts(), m.LE(m.Int(0), t), m.LT(t, enc.nthreads))
        formulas = [
            Implies(thread, m.Equals(named.number, t)),
            Implies(thread, m.Equals(named.number, m.Plus(t, m.Int(1)))),
        ]
        assert decide(formulas, timeout=20.0) == [PROVED, REFUTED]
