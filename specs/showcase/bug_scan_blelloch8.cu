// expect: failed postcondition:4
// Planted bug in the Blelloch scan on 8 threads: the down-sweep overwrites the right child with the left sum (`t[threadIdx.x] = x`) instead of adding it, so out[j] loses the prefix held by the parent.
/*@ requires gridDim.x == 1; requires blockDim.x == 8;
    ensures \forall int j; 0 <= j < blockDim.x ==> out[j] == \sum(0, j - 1, \lambda int k; \old(in[k]));
*/
__global__ void bug_scan_blelloch8(int *in, int *out) {
    __shared__ int t[8];
    t[threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    for (int d = 1; d < blockDim.x; d *= 2) {  // up-sweep
        if ((threadIdx.x + 1) % (2 * d) == 0) t[threadIdx.x] += t[threadIdx.x - d];
        __syncthreads();
    }
    if (threadIdx.x == blockDim.x - 1) t[threadIdx.x] = 0;
    __syncthreads();
    for (int d = blockDim.x / 2; d > 0; d /= 2) {  // down-sweep
        if ((threadIdx.x + 1) % (2 * d) == 0) {
            int x = t[threadIdx.x - d];
            t[threadIdx.x - d] = t[threadIdx.x];
            t[threadIdx.x] = x;
        }
        __syncthreads();
    }
    out[threadIdx.x] = t[threadIdx.x];
}
// allow-unknown: cvc5 postcondition:4 data-race:19 -- cvc5 finds no model in 30 s and times out on the down-sweep race VC (z3 decides both)
