// expect: verified
// The fix of race_shared_missing_barrier.cu: a barrier between the writes and the reads of s.
/*@ requires blockDim.x == 4;
    ensures \forall int j; 0 <= j < 4 ==> out[j] == (j + 1) % 4;
*/
__global__ void shared_with_barrier(int *out) {
    __shared__ int s[4];
    int t = threadIdx.x;
    s[t] = t;
    __syncthreads();
    out[t] = s[(t + 1) % 4];
}
