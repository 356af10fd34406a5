// expect: verified
// GPUVerify's two-thread intrinsics in hypotheses and invariants (__uniform_int, __distinct_int, __other_int: read over every other thread of the block); a device function's __requires/__ensures with __return_val_int (checked at each call); __assume
__device__ int next(int x) {
    __requires(x >= 0);
    __ensures(__return_val_int() == x + 1);
    return x + 1;
}

__global__ void dialect_threads(int *out, int *in, int n) {
    __requires(blockDim.x == 8);
    __requires(n > 0);
    __requires(__implies(threadIdx.x < __other_int(threadIdx.x), in[threadIdx.x] < __other_int(in[threadIdx.x])));
    __ensures(out[threadIdx.x] == n);
    int k = threadIdx.x;
    int steps = 0;
    for (int i = 0;
         __invariant(__uniform_int(i)),
         __invariant(__distinct_int(k)),
         __invariant(0 <= i & i <= n),
         __invariant(k == threadIdx.x + 8 * i),
         __invariant(steps == i),
         i < n; i++) {
        k = k + blockDim.x;
        steps = next(steps);
    }
    __assert(steps == n);
    __assert(__implies(threadIdx.x > 0, in[threadIdx.x - 1] < in[threadIdx.x]));
    int t = k % 8;
    __assume(t >= 0);
    __assert(t == threadIdx.x);
    out[threadIdx.x] = steps;
}
