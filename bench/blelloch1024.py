"""The Blelloch scan at 1,024 threads with barrier invariants (issue 12), generated and
verified with z3; results in bench/results/blelloch1024.{json,md}.

The kernel is `specs/showcase/scan_blelloch8.cu`'s at 1,024 threads, both loops unrolled,
with at each barrier one `barrier invariant` clause per level of the tree (11 clauses,
written once in the loop body): a cell of level e (e the largest power of two dividing
j + 1) holds the sum of its e inputs, and in the down-sweep a cell of the current level d
holds the sum of everything before its block. Each barrier is a cut (README, "Barrier
invariants"), so a round's VCs see the invariant, not the rounds before. It is generated
here, not kept in specs/, because its planted bugs are not refuted yet (z3 finds no model
of the prefix sums' step axiom in 60 s); the variants:

- `correct`: expected verified (367 VCs);
- `bug_root_not_cleared`: the line that clears the root before the down-sweep is missing;
  the first clause of the barrier after it (the root holds the empty sum) is false;
- `bug_overwrite`: the down-sweep overwrites the right child with the left sum
  (`t[threadIdx.x] = x`); the down-sweep's clause for the current level is false from its
  second round on.

    .venv/bin/python bench/blelloch1024.py [--timeout 60] [--variants correct,bug_overwrite]
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

from showcase import measure, table  # bench/showcase.py, beside this script

ROOT = Path(__file__).resolve().parents[1]
N = 1024
VARIANTS = ("correct", "bug_root_not_cleared", "bug_overwrite")


def _sum(low: str, high: str) -> str:
    return f"\\sum({low}, {high}, \\lambda int k; \\old(in[k]))"


def _clause(guard: str, low: str, high: str) -> str:
    return f"barrier invariant \\forall int j; 0 <= j < {N} && {guard} ==> t[j] == {_sum(low, high)};"


def _invariants(own: tuple[str, str, str], bound: str, indent: str) -> str:
    """The annotation before a barrier: the round's own clause (guard, low, high), then one
    clause per level of the tree below `bound` (a level-e cell sums its e inputs)."""
    lines = [f"{indent}/*@ {_clause(*own)}"]
    e = 1
    while e < N:
        guard = f"{e} < {bound} && (j + 1) % {2 * e} == {e}"
        lines.append(f"{indent}    {_clause(guard, 'j' if e == 1 else f'j - {e - 1}', 'j')}")
        e *= 2
    return "\n".join([*lines, f"{indent}*/"])


def kernel(variant: str) -> str:
    expect = {
        "correct": "verified",
        "bug_root_not_cleared": "failed barrier-invariant:27",
        "bug_overwrite": "failed barrier-invariant:46",
    }[variant]
    clear = "if (threadIdx.x == N - 1) t[threadIdx.x] = 0;"
    if variant == "bug_root_not_cleared":
        clear = "// missing: " + clear
    add = "t[threadIdx.x] = x;" if variant == "bug_overwrite" else "t[threadIdx.x] += x;"
    up = _invariants(("(j + 1) % (2 * d) == 0", "j - 2 * d + 1", "j"), "2 * d", " " * 8)
    root = _invariants((f"(j + 1) % {N} == 0", "0", f"j - {N}"), str(N), " " * 4)
    down = _invariants(("(j + 1) % d == 0", "0", "j - d"), "d", " " * 8)
    return f"""// expect: {expect}
#define N {N}
/*@ requires gridDim.x == 1; requires blockDim.x == {N};
    ensures \\forall int j; 0 <= j < {N} ==> out[j] == {_sum("0", "j - 1")};
*/
__global__ void scan_blelloch1024(int *in, int *out) {{
    __shared__ int t[N];
    t[threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    for (int d = 1; d < N; d *= 2) {{  // up-sweep
        if ((threadIdx.x + 1) % (2 * d) == 0) t[threadIdx.x] += t[threadIdx.x - d];
{up}
        __syncthreads();
    }}
    {clear}
{root}
    __syncthreads();
    for (int d = N / 2; d > 0; d /= 2) {{  // down-sweep
        if ((threadIdx.x + 1) % (2 * d) == 0) {{
            int x = t[threadIdx.x - d];
            t[threadIdx.x - d] = t[threadIdx.x];
            {add}
        }}
{down}
        __syncthreads();
    }}
    out[threadIdx.x] = t[threadIdx.x];
}}
"""


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--variants", default=",".join(VARIANTS), help="of: " + ", ".join(VARIANTS))
    args = parser.parse_args()
    rows: list[dict[str, object]] = []
    with tempfile.TemporaryDirectory() as folder:
        for variant in args.variants.split(","):
            path = Path(folder) / f"{variant}.cu"
            path.write_text(kernel(variant))
            rows.append(measure(path, "z3", args.timeout))
            print(json.dumps(rows[-1]), flush=True)
    out = ROOT / "bench" / "results"
    out.mkdir(parents=True, exist_ok=True)
    results = {"timeout": args.timeout, "runs": rows}
    (out / "blelloch1024.json").write_text(json.dumps(results, indent=2) + "\n")
    (out / "blelloch1024.md").write_text(
        "# The Blelloch scan at 1,024 threads with barrier invariants\n\n"
        "Generated by `bench/blelloch1024.py`: `hoaregpu verify --no-cache --json --jobs 2` with z3 "
        f"(race checks on), {args.timeout:g} s per VC, on this repository's 2-core machine.\n\n" + table(rows)
    )


if __name__ == "__main__":
    main()
