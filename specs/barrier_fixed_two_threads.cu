// expect: verified
// `if (threadIdx.x < 2) __syncthreads();` is fine when the precondition fixes the thread
// count to 2: every thread takes the branch, so the barrier is reached by all of them.
/*@ requires blockDim.x == 2;
    ensures out[threadIdx.x] == in[1 - threadIdx.x];
*/
__global__ void barrier_fixed_two_threads(int *in, int *out) {
    __shared__ int tile[2];
    if (threadIdx.x < 2) {
        tile[threadIdx.x] = in[threadIdx.x];
        __syncthreads();
        out[threadIdx.x] = tile[1 - threadIdx.x];
    }
}
