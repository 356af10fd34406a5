// expect: verified
// Paper §3.3.2 tree reduction on 256 threads over 2N = 512 cells: a[0] ends as the \sum of the inputs (the loop has a constant trip count, so it is unrolled and the sum written out).
// allow-unknown: cvc5 postcondition:5 -- cvc5 needs more than 20 s for the 512-term sum against 8 unrolled rounds (z3 proves it)
/*@ requires gridDim.x == 1; requires blockDim.x == 256;
    ensures a[0] == \sum(0, 2 * blockDim.x - 1, \lambda int k; \old(a[k]));
*/
__global__ void sum_tree_reduction256(int *a) {
    for (int s = blockDim.x; s > 0; s /= 2) {
        if (threadIdx.x < s) {
            a[threadIdx.x] = a[threadIdx.x] + a[threadIdx.x + s];
        }
        __syncthreads();
    }
}
// allow-unknown: cvc5 data-race:10 -- the race VC of the tree step (s & (s-1) strides); z3 proves it, cvc5 times out at 20 s
