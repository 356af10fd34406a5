// expect: failed data-race:9
// Missing barrier in shared memory: thread t reads s[(t + 1) % 4] (line 9), written by thread t + 1 at line 8 without a barrier between.
/*@ requires blockDim.x == 4;
*/
__global__ void shared_missing_barrier(int *out) {
    __shared__ int s[4];
    int t = threadIdx.x;
    s[t] = t;
    out[t] = s[(t + 1) % 4];
}
