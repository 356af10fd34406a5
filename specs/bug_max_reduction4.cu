// expect: failed postcondition:4 postcondition:5
// Planted bug in the max-reduction: the comparison keeps the smaller value, so a[0] is the \min, not the \max.
/*@ requires blockDim.x == 4;
    ensures a[0] == \max(0, 2 * blockDim.x - 1, \lambda int k; \old(a[k]));
    ensures \forall int j; 0 <= j < 2 * blockDim.x ==> a[0] >= \old(a[j]);
    ensures a[0] == \min(0, 2 * blockDim.x - 1, \lambda int k; \old(a[k]));
*/
__global__ void bug_max_reduction4(int *a) {
    for (int s = blockDim.x; s > 0; s /= 2) {
        if (threadIdx.x < s && a[threadIdx.x + s] < a[threadIdx.x]) {
            a[threadIdx.x] = a[threadIdx.x + s];
        }
        __syncthreads();
    }
}
