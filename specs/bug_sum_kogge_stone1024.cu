// expect: failed loop-invariant-entry:9
// Planted bug in the Kogge–Stone scan on 1,024 threads: the distance starts at 2, so a[j] never adds a[j-1].
// allow-unknown: cvc5 loop-invariant-entry:9 -- cvc5 finds no model of the prefix-sum step axiom (z3 refutes it)
/*@ requires gridDim.x == 1; requires blockDim.x == 1024;
    ensures \forall int j; 0 <= j < blockDim.x ==> a[j] == \sum(0, j, \lambda int k; \old(a[k]));
*/
__global__ void bug_sum_kogge_stone1024(int *a) {
    /*@ loop invariant 1 <= d && d == d @ 0;
        loop invariant \forall int j; 0 <= j < blockDim.x ==>
                         a[j] == \sum(\max(0, j - d @ 0 + 1), j, \lambda int k; \old(a[k]));
    */
    for (int d = 2; d < blockDim.x; d *= 2) {
        int v = 0;
        if (threadIdx.x >= d) v = a[threadIdx.x - d];
        __syncthreads();
        a[threadIdx.x] += v;
        __syncthreads();
    }
}
