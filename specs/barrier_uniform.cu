// expect: verified
// Barriers that all threads reach together, for any thread count: under a branch on an
// unassigned scalar parameter, under a branch on one shared cell, under a condition that
// is true in every thread, and at top level. No barrier-divergence VC may fail.
/*@ requires gridDim.x == 1; ensures n > 0 ==> \forall int j; 0 <= j < blockDim.x ==> out[j] == in[blockDim.x - 1 - j];
*/
__global__ void barrier_uniform(int *in, int *out, int *flag, int n) {
    __shared__ int tile[1024];
    if (n > 0) {
        tile[threadIdx.x] = in[threadIdx.x];
        __syncthreads();
        out[threadIdx.x] = tile[blockDim.x - 1 - threadIdx.x];
    }
    if (flag[0] != 0) {
        __syncthreads();
    }
    if (threadIdx.x < blockDim.x) {
        __syncthreads();
    }
    __syncthreads();
}
