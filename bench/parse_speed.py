"""Time the front end on generated specs of ~200 and ~500 lines; write bench/results/parse_speed.json.

The target (issue 9) is a 500-line kernel file in under 0.3 s. Both wall-clock and CPU
time are recorded: on a shared machine the CPU time is the steadier of the two.

Run: .venv/bin/python bench/parse_speed.py [--repeat N] [--lines 200 500]
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


def measure(lines: int, repeat: int) -> dict[str, object]:
    text = make_spec(lines)
    wall, cpu = [], []
    spec = parse_text(text, "bench.cu")  # warm: libclang loaded, grammars built
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        spec = parse_text(text, "bench.cu")
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return {
        "lines": text.count("\n"),
        "kernels": len(spec.kernels),
        "repeat": repeat,
        "min_seconds": round(min(wall), 4),
        "median_seconds": round(statistics.median(wall), 4),
        "max_seconds": round(max(wall), 4),
        "median_cpu_seconds": round(statistics.median(cpu), 4),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--lines", type=int, nargs="+", default=[200, 500])
    args = parser.parse_args()
    result = {"target_seconds_500_lines": 0.3, "runs": [measure(n, args.repeat) for n in args.lines]}
    out = Path(__file__).parent / "results" / "parse_speed.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
