// expect: verified
// Paper §3.3.2 tree reduction on 8 threads over 2N = 16 cells: a[0] ends as the \sum of the inputs (the loop has a constant trip count, so it is unrolled and the sum written out).
/*@ requires gridDim.x == 1; requires blockDim.x == 8;
    ensures a[0] == \sum(0, 2 * blockDim.x - 1, \lambda int k; \old(a[k]));
*/
__global__ void sum_tree_reduction8(int *a) {
    for (int s = blockDim.x; s > 0; s /= 2) {
        if (threadIdx.x < s) {
            a[threadIdx.x] = a[threadIdx.x] + a[threadIdx.x + s];
        }
        __syncthreads();
    }
}
// allow-unknown: cvc5 data-race:9 -- the race VC of the tree step; z3 proves it, cvc5 times out at 20 s
