// expect: verified
// Counting with \numof: each thread flags whether its input is positive; the flags set are as many as the positive inputs (any thread count).
/*@ requires gridDim.x == 1; ensures \numof(0, blockDim.x - 1, \lambda int k; pos[k] != 0)
            == \numof(0, blockDim.x - 1, \lambda int k; \old(a[k]) > 0);
    ensures \numof(0, blockDim.x - 1, \lambda int k; pos[k] != 0) <= blockDim.x;
*/
__global__ void numof_positive(int *a, int *pos) {
    pos[threadIdx.x] = a[threadIdx.x] > 0;
}
