// expect: failed barrier-divergence:11 barrier-divergence:14
// Barriers under thread-dependent branches, for any thread count. With 3 threads the first
// is reached by threads 0 and 1 only; the second depends on per-thread shared data
// (flag[0] = 1, flag[1] = 0). Both diverge under the strict rule of §7. The postcondition
// does not depend on the barriers and is proved.
/*@ requires gridDim.x == 1; ensures out[threadIdx.x] == threadIdx.x;
*/
__global__ void barrier_divergent_branch(int *flag, int *out) {
    out[threadIdx.x] = threadIdx.x;
    if (threadIdx.x < 2) {
        __syncthreads();
    }
    if (flag[threadIdx.x] > 0) {
        __syncthreads();
    }
}
