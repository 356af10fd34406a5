"""The whole front end (parse → lower → transform → VCs → SMT-LIB) raises nothing but
hoaregpu's own errors, on specs mutated at random (line deletions, duplications, and
tokens spliced in). The parser has its own property test; this one reaches the later stages."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hoaregpu.driver import prepare_kernel
from hoaregpu.errors import HoareGpuError
from hoaregpu.frontend import parse_text
from hoaregpu.lower import lower_file

SPECS = [p.read_text() for p in sorted((Path(__file__).resolve().parents[1] / "specs").glob("*.cu"))]
TOKENS = [
    "threadIdx.x", "blockDim.x", "[", "]", "(", ")", ";", "==>", "@", "\\old(", "\\all(",
    "\\forall int q;", "%", "/", "<<", ">>", "-", "!", "?", ":", "0", "-1", "x", "a[0]",
    "if", "while", "__syncthreads();", "{", "}", "int k;", "//@ assert k > 0;\n",
    "/*@ loop invariant 1; */", "\n",
]  # fmt: skip

edit = st.tuples(
    st.sampled_from(["delete", "duplicate", "splice"]), st.integers(0, 10_000), st.integers(0, 200)
)


@st.composite
def mutated_spec(draw: st.DrawFn) -> str:
    lines = draw(st.sampled_from(SPECS)).split("\n")
    for kind, where, col in draw(st.lists(edit, min_size=1, max_size=3)):
        i = where % len(lines)
        if kind == "delete" and len(lines) > 1:
            del lines[i]
        elif kind == "duplicate":
            lines.insert(i, lines[(where // 7) % len(lines)])
        else:
            line = lines[i]
            p = col % (len(line) + 1)
            lines[i] = line[:p] + draw(st.sampled_from(TOKENS)) + line[p:]
    return "\n".join(lines)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_spec())
def test_front_end_raises_only_its_own_errors(src: str) -> None:
    try:
        for kernel in lower_file(parse_text(src, "fuzz.cu")):
            prepare_kernel("fuzz.cu", kernel, None)
    except HoareGpuError:
        pass
