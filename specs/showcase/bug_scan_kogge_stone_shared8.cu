// expect: failed postcondition:4
// Planted bug in the shared-memory Kogge–Stone scan on 8 threads: the loop stops at d < blockDim.x / 2, one round early, so out[j] misses in[0..j-4] for j >= 4.
/*@ requires gridDim.x == 1; requires blockDim.x == 8;
    ensures \forall int j; 0 <= j < blockDim.x ==> out[j] == \sum(0, j, \lambda int k; \old(in[k]));
*/
__global__ void bug_scan_kogge_stone_shared8(int *in, int *out) {
    __shared__ int s[8];
    s[threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    /*@ loop invariant 1 <= d && d == d @ 0;
        loop invariant \forall int j; 0 <= j < blockDim.x ==>
                         s[j] == \sum(\max(0, j - d @ 0 + 1), j, \lambda int k; \old(in[k]));
    */
    for (int d = 1; d < blockDim.x / 2; d *= 2) {
        int v = 0;
        if (threadIdx.x >= d) v = s[threadIdx.x - d];
        __syncthreads();
        s[threadIdx.x] += v;
        __syncthreads();
    }
    out[threadIdx.x] = s[threadIdx.x];
}
// allow-unknown: cvc5 postcondition:4 -- cvc5 finds no model of the prefix-sum axioms in 30 s (z3 refutes it; the run confirms it)
