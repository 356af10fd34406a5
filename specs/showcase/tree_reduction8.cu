// expect: verified
// Paper §3.3.2 tree reduction on 8 threads over 2N = 16 cells: in round s (8, 4, 2, 1) thread t < s adds a[t + s] into a[t]; a[0] ends as the \sum of the inputs (constant trip count: unrolled, the sum written out).
/*@ requires gridDim.x == 1; requires blockDim.x == 8;
    ensures a[0] == \sum(0, 2 * blockDim.x - 1, \lambda int k; \old(a[k]));
*/
__global__ void tree_reduction8(int *a) {
    for (int s = blockDim.x; s > 0; s /= 2) {
        if (threadIdx.x < s) {
            a[threadIdx.x] = a[threadIdx.x] + a[threadIdx.x + s];
        }
        __syncthreads();
    }
}
