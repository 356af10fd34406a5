// expect: failed postcondition:4
// Planted bug in the §3.3.2 tree reduction on 1,024 threads: the loop stops at s > 1, so the last round (a[0] += a[1]) never runs and a[0] misses the half of the sum held in a[1].
/*@ requires gridDim.x == 1; requires blockDim.x == 1024;
    ensures a[0] == \sum(0, 2 * blockDim.x - 1, \lambda int k; \old(a[k]));
*/
__global__ void bug_tree_reduction1024(int *a) {
    for (int s = blockDim.x; s > 1; s /= 2) {
        if (threadIdx.x < s) {
            a[threadIdx.x] = a[threadIdx.x] + a[threadIdx.x + s];
        }
        __syncthreads();
    }
}
// allow-unknown: cvc5 postcondition:4 -- cvc5 finds no model of the 2,048-term sum against 11 unrolled rounds in 30 s (z3 refutes it; a run confirms it)
