// expect: verified
// Paper §3.3.2 tree reduction on 1,024 threads over 2N = 2,048 cells: in round s (1024, 512, ..., 1) thread t < s adds a[t + s] into a[t]; a[0] ends as the \sum of the inputs (constant trip count: unrolled, the sum written out).
/*@ requires gridDim.x == 1; requires blockDim.x == 1024;
    ensures a[0] == \sum(0, 2 * blockDim.x - 1, \lambda int k; \old(a[k]));
*/
__global__ void tree_reduction1024(int *a) {
    for (int s = blockDim.x; s > 0; s /= 2) {
        if (threadIdx.x < s) {
            a[threadIdx.x] = a[threadIdx.x] + a[threadIdx.x + s];
        }
        __syncthreads();
    }
}
// allow-unknown: cvc5 postcondition:4 -- cvc5 does not prove the 2,048-term sum against 11 unrolled rounds in 30 s (z3: under 1 s)
