// expect: verified
// A device function with `return` before its end (also inside a loop): each return ends the
// inlined body for the threads that take it (a flag of the call's own); the barrier after
// the call is reached by every thread. The loop has a constant trip count and is unrolled.
__device__ int find(int v) {
    if (v < 0)
        return -1;
    for (int k = 0; k < 4; k++) {
        if (2 * k == v)
            return k;
    }
    return 4;
}

/*@ requires blockDim.x == 4;
    ensures \forall int t; 0 <= t < 4 ==> out[t] == (t % 2 == 0 ? t / 2 : 4);
*/
__global__ void device_early_return(int *out) {
    __shared__ int s[4];
    s[threadIdx.x] = find(threadIdx.x);
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x];
}
