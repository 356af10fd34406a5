// expect: failed barrier-divergence:9
// Planted bug: a device function returns early for thread 0 and then waits at a barrier:
// the barrier inside the inlined body is not reached by the thread that returned.
__device__ void publish(int *s, const int *in) {
    if (threadIdx.x == 0)
        return;
    s[threadIdx.x] = in[threadIdx.x];
    // a barrier that thread 0 skips
    __syncthreads();
}

/*@ requires gridDim.x == 1; requires blockDim.x == 4; */
__global__ void bug_device_early_return_barrier(const int *in, int *out) {
    __shared__ int s[4];
    publish(s, in);
    out[threadIdx.x] = s[(threadIdx.x + 1) % 4];
}
