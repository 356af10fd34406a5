// expect: failed loop-invariant-preserved:9
// Planted bug in the Kogge–Stone scan: `threadIdx.x > d` skips the partner at distance d exactly; the refutation is confirmed by execution.
// allow-unknown: cvc5 loop-invariant-preserved:8 loop-invariant-preserved:9 -- cvc5 finds no model of the prefix-sum axioms and needs about 45 s for the other clause (z3 decides both)
/*@ requires gridDim.x == 1; requires blockDim.x == 8;
    ensures \forall int j; 0 <= j < blockDim.x ==> a[j] == \sum(0, j, \lambda int k; \old(a[k]));
*/
__global__ void bug_sum_kogge_stone8(int *a) {
    /*@ loop invariant 1 <= d && d == d @ 0;
        loop invariant \forall int j; 0 <= j < blockDim.x ==>
                         a[j] == \sum(\max(0, j - d @ 0 + 1), j, \lambda int k; \old(a[k]));
    */
    for (int d = 1; d < blockDim.x; d *= 2) {
        int v = 0;
        if (threadIdx.x > d) v = a[threadIdx.x - d];
        __syncthreads();
        a[threadIdx.x] += v;
        __syncthreads();
    }
}
