// expect: verified
// Kogge–Stone inclusive scan in place on 8 threads: a[j] ends as the sum of the inputs 0..j (\sum over a range that grows with the distance d).
// allow-unknown: cvc5 loop-invariant-preserved:9 -- cvc5 needs about 45 s for the 8 expanded instances of the sum invariant (z3: under 1 s; at 1,024 threads both prove it)
/*@ requires gridDim.x == 1; requires blockDim.x == 8;
    ensures \forall int j; 0 <= j < blockDim.x ==> a[j] == \sum(0, j, \lambda int k; \old(a[k]));
*/
__global__ void sum_kogge_stone8(int *a) {
    /*@ loop invariant 1 <= d && d == d @ 0;
        loop invariant \forall int j; 0 <= j < blockDim.x ==>
                         a[j] == \sum(\max(0, j - d @ 0 + 1), j, \lambda int k; \old(a[k]));
    */
    for (int d = 1; d < blockDim.x; d *= 2) {
        int v = 0;
        if (threadIdx.x >= d) v = a[threadIdx.x - d];
        __syncthreads();
        a[threadIdx.x] += v;
        __syncthreads();
    }
}
