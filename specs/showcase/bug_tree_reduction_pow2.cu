// expect: failed postcondition:6
// Planted bug in the tree reduction for any power-of-two thread count: the loop stops at s > 1, so the last round (a[0] += a[1]) never runs; the invariants still hold, the postcondition does not.
/*@ requires gridDim.x == 1;
    requires blockDim.x == 1 || blockDim.x == 2 || blockDim.x == 4 || blockDim.x == 8 || blockDim.x == 16 || blockDim.x == 32
             || blockDim.x == 64 || blockDim.x == 128 || blockDim.x == 256 || blockDim.x == 512 || blockDim.x == 1024;
    ensures a[0] == \sum(0, 2 * blockDim.x - 1, \lambda int k; \old(a[k]));
*/
__global__ void bug_tree_reduction_pow2(int *a) {
    /*@ loop invariant s == s @ 0;
        loop invariant s @ 0 <= blockDim.x;
        loop invariant s @ 0 == 0 || s @ 0 == 1 || s @ 0 == 2 || s @ 0 == 4 || s @ 0 == 8 || s @ 0 == 16 || s @ 0 == 32
                       || s @ 0 == 64 || s @ 0 == 128 || s @ 0 == 256 || s @ 0 == 512 || s @ 0 == 1024;
        loop invariant s @ 0 >= 1 ==> \sum(0, 2 * s @ 0 - 1, \lambda int k; a[k])
                                      == \sum(0, 2 * blockDim.x - 1, \lambda int k; \old(a[k]));
        loop invariant s @ 0 == 0 ==> a[0] == \sum(0, 2 * blockDim.x - 1, \lambda int k; \old(a[k]));
    */
    for (int s = blockDim.x; s > 1; s /= 2) {
        //@ assert s @ 0 == 1 || s @ 0 % 2 == 0;
        //@ assert \sum(0, 2 * s @ 0 - 1, \lambda int k; a[k]) == \sum(0, s @ 0 - 1, \lambda int k; a[k] + a[k + s @ 0]);
        if (threadIdx.x < s) {
            a[threadIdx.x] = a[threadIdx.x] + a[threadIdx.x + s];
        }
        __syncthreads();
    }
}
// allow-unknown: cvc5 postcondition:6 loop-invariant-preserved:13 -- cvc5 finds no model in 30 s and times out on the sum invariant's preservation here (z3 decides both; cvc5 proves the correct kernel)
