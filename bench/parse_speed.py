"""Time the parser on a generated ~200-line spec; write bench/results/parse_speed.json.

Run: .venv/bin/python bench/parse_speed.py [--repeat N]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from hoaregpu.frontend import parse_text

KERNEL = """\
/*@ requires n >= 0 && blockDim.x >= 1;
    ensures \\forall int j; 0 <= j < n ==> c[j] == a[j] + b[j] * {i};
*/
__global__ void kernel_{i}(const int *a, int *b, int *c, int n) {{
    int k = threadIdx.x;
    __shared__ int s[256];
    s[threadIdx.x] = (k * 2 + {i}) % 7;
    __syncthreads();
    /*@ loop invariant k % blockDim.x == threadIdx.x && k >= threadIdx.x;
        loop invariant \\forall int j; 0 <= j < n && j % blockDim.x == threadIdx.x && j < k
                           ==> c[j] == a[j] + b[j] * {i};
    */
    while (k < n) {{
        c[k] = a[k] + b[k] * {i};
        k += blockDim.x;
    }}
    //@ assert k >= n;
    for (int r = 0; r < 4; r++) {{
        if (threadIdx.x < r && (n > 2 || r == 1)) {{ b[r] = s[r] << 1; }} else {{ ; }}
    }}
}}

"""


def make_spec(lines: int = 200) -> str:
    header = "#include <cuda.h>\n#define N 256\n\n"
    out = [header]
    i = 0
    while sum(part.count("\n") for part in out) < lines:
        out.append(KERNEL.format(i=i))
        i += 1
    return "".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=10)
    args = parser.parse_args()
    text = make_spec()
    n_lines = text.count("\n")
    times = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        spec = parse_text(text, "bench.cu")
        times.append(time.perf_counter() - start)
    result = {
        "lines": n_lines,
        "kernels": len(spec.kernels),
        "repeat": args.repeat,
        "min_seconds": round(min(times), 4),
        "median_seconds": round(statistics.median(times), 4),
        "max_seconds": round(max(times), 4),
    }
    out = Path(__file__).parent / "results" / "parse_speed.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
