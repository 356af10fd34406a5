"""Property: on any input the parser returns a SpecFile or raises a SpecError, nothing else."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hoaregpu.errors import SpecError
from hoaregpu.frontend import parse_text
from hoaregpu.parser import parse_expr, parse_formula
from hoaregpu.syntax import SpecFile
from hoaregpu.terms import Binary, BinOp, IntLit, Term, Var

VALID = """\
#include <cuda.h>
#define N 256
/*@ requires n >= 0 && blockDim.x == N;
  @ ensures \\forall int j; 0 <= j < n ==> c[j] == a[j] + b[j];
  @*/
__global__ void vector_add(const int *a, int *b, int c[], unsigned n) {
    int k = threadIdx.x;
    __shared__ int s[N][2];
    //@ loop invariant k % blockDim.x == tid && \\all(k >= 0) && (k @ 0) >= 0;
    while (k < n) {
        c[k] = a[k] + b[k] * (k << 1) - (k ? 1 : 0x2u);
        k += blockDim.x;
    }
    for (int i = 0; i < 4; i++) { if (!(i != 2)) s[i][0] = -i; else ; }
    __syncthreads();
    /*@ assert \\old(n) == n; assume \\exists int i; i == k; */
}
"""

PIECES = [
    *list(VALID),
    "/*@",
    "*/",
    "//@",
    "@",
    "\\forall",
    "==>",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ";",
    "\n",
    "#define X",
    "#",
    "loop invariant",
    "while (",
    "\\",
    '"',
    "'",
    "/*",
    "//",
    "0x",
    "1.5",
    "threadIdx.",
    "\x01",
    "\x02",
]


def check(text: str) -> None:
    try:
        result = parse_text(text, "fuzz.cu")
    except SpecError as err:
        assert "internal parser error" not in err.message, err.render()
        assert err.span.path == "fuzz.cu"
        assert err.span.line >= 1 and err.span.col >= 1
        err.render()
    else:
        assert isinstance(result, SpecFile)


# HOAREGPU_FUZZ_EXAMPLES=5000 for a longer run
FUZZ = settings(
    max_examples=int(os.environ.get("HOAREGPU_FUZZ_EXAMPLES", "200")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


def test_valid_spec_parses() -> None:
    spec = parse_text(VALID)
    assert spec.kernels[0].name == "vector_add"


@FUZZ
@given(st.text(max_size=200))
def test_arbitrary_text(text: str) -> None:
    check(text)


@FUZZ
@given(st.data())
def test_mutated_spec(data: st.DataObject) -> None:
    text = VALID
    for _ in range(data.draw(st.integers(1, 4))):
        kind = data.draw(st.sampled_from(["truncate", "delete", "insert", "replace", "swap"]))
        pos = data.draw(st.integers(0, len(text)))
        if kind == "truncate":
            text = text[:pos]
        elif kind == "delete":
            text = text[:pos] + text[pos + data.draw(st.integers(1, 10)) :]
        elif kind == "insert":
            text = text[:pos] + data.draw(st.sampled_from(PIECES)) + text[pos:]
        elif kind == "replace":
            text = text[:pos] + data.draw(st.sampled_from(PIECES)) + text[pos + 1 :]
        else:
            other = data.draw(st.integers(0, len(text)))
            a, b = sorted((pos, other))
            text = text[:a] + text[b:] + text[a:b]
    check(text)


@FUZZ
@given(st.lists(st.sampled_from([*"ab01()[]<=>!-+*/%?:@&|^~ \\;,.xtnid", "\\forall int j;", "\\old("])))
def test_expressions_and_formulas(tokens: list[str]) -> None:
    text = "".join(tokens)
    for parse in (parse_expr, parse_formula):
        try:
            parse(text, "e")
        except SpecError as err:
            assert "internal parser error" not in err.message, err.render()


# C's binary precedence (C11 6.5), written out here independently of the grammar's table
_C_PRECEDENCE = {
    "*": 10, "/": 10, "%": 10, "+": 9, "-": 9, "<<": 8, ">>": 8,
    "<": 7, "<=": 7, ">": 7, ">=": 7, "==": 6, "!=": 6,
    "&": 5, "^": 4, "|": 3, "&&": 2, "||": 1,
}  # fmt: skip
_COMPARISONS = {7, 6}


def _trees() -> st.SearchStrategy[Term]:
    leaves = st.one_of(st.sampled_from("abcxy").map(lambda n: Var(n, ())), st.integers(0, 9).map(IntLit))
    return st.recursive(
        leaves,
        lambda sub: st.builds(
            lambda op, left, right: Binary(BinOp(op), left, right),
            st.sampled_from(list(_C_PRECEDENCE)),
            sub,
            sub,
        ),
        max_leaves=12,
    )


def _c_text(t: Term) -> str:
    """`t` with only the parentheses C needs (and around a comparison inside a comparison of
    its level, which annotations would read as a chain)."""
    if isinstance(t, Var):
        return t.name
    if isinstance(t, IntLit):
        return str(t.value)
    assert isinstance(t, Binary)
    prec = _C_PRECEDENCE[t.op.value]

    def side(child: Term, right: bool) -> str:
        text = _c_text(child)
        if not isinstance(child, Binary):
            return text
        inner = _C_PRECEDENCE[child.op.value]
        chained = inner == prec and prec in _COMPARISONS
        return f"({text})" if inner < prec or (right and inner == prec) or chained else text

    return f"{side(t.left, False)} {t.op.value} {side(t.right, True)}"


@FUZZ
@given(_trees())
def test_binary_operators_group_by_c_precedence(tree: Term) -> None:
    text = _c_text(tree)
    assert parse_expr(text) == tree, text
    assert parse_formula(text) == tree, text
