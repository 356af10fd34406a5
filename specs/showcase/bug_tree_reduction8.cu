// expect: failed postcondition:4
// Planted bug in the §3.3.2 tree reduction on 8 threads: the first round's stride is blockDim.x / 2, so the upper half a[8..15] of the input is never added.
/*@ requires gridDim.x == 1; requires blockDim.x == 8;
    ensures a[0] == \sum(0, 2 * blockDim.x - 1, \lambda int k; \old(a[k]));
*/
__global__ void bug_tree_reduction8(int *a) {
    for (int s = blockDim.x / 2; s > 0; s /= 2) {
        if (threadIdx.x < s) {
            a[threadIdx.x] = a[threadIdx.x] + a[threadIdx.x + s];
        }
        __syncthreads();
    }
}
