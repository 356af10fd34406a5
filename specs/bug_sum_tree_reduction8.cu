// expect: failed postcondition:4
// Planted bug in the §3.3.2 tree reduction: the loop stops at s > 1, so a[0] misses the sum held in a[1].
/*@ requires gridDim.x == 1; requires blockDim.x == 8;
    ensures a[0] == \sum(0, 2 * blockDim.x - 1, \lambda int k; \old(a[k]));
*/
__global__ void bug_sum_tree_reduction8(int *a) {
    for (int s = blockDim.x; s > 1; s /= 2) {
        if (threadIdx.x < s) {
            a[threadIdx.x] = a[threadIdx.x] + a[threadIdx.x + s];
        }
        __syncthreads();
    }
}
