// expect: failed loop-invariant-preserved:12
// Planted bug in the shared-memory Kogge–Stone scan for any thread count: `v` is declared once before the loop instead of reset each round, so a thread with threadIdx.x < d adds its stale partner value again.
/*@ requires gridDim.x == 1; requires blockDim.x <= 1024;
    ensures \forall int j; 0 <= j < blockDim.x ==> out[j] == \sum(0, j, \lambda int k; \old(in[k]));
*/
__global__ void bug_scan_kogge_stone_shared_symbolic(int *in, int *out) {
    __shared__ int s[1024];
    s[threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    int v = 0;
    /*@ loop invariant 1 <= d && d == d @ 0;
        loop invariant \forall int j; 0 <= j < blockDim.x ==>
                         s[j] == \sum(\max(0, j - d @ 0 + 1), j, \lambda int k; \old(in[k]));
    */
    for (int d = 1; d < blockDim.x; d *= 2) {
        if (threadIdx.x >= d) v = s[threadIdx.x - d];
        __syncthreads();
        s[threadIdx.x] += v;
        __syncthreads();
    }
    out[threadIdx.x] = s[threadIdx.x];
}
// allow-unknown: cvc5 loop-invariant-preserved:12 -- cvc5 finds no model of the prefix-sum axioms in 30 s (z3 refutes it; the run confirms it)
