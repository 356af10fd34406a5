// expect: verified
// Max tree reduction in shared memory, 8 threads: each thread loads one input, each round halves the live range (thread t keeps the max of m[t] and m[t + s]), and thread 0 writes the maximum. The loop's trip count is constant, so it is unrolled.
/*@ requires blockDim.x == 8 && gridDim.x == 1;
    ensures out[0] == \max(0, 7, \lambda int k; \old(in[k]));
    ensures \forall int j; 0 <= j < 8 ==> out[0] >= \old(in[j]);
*/
__global__ void max_reduction(const int *in, int *out) {
    __shared__ int m[8];
    m[threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s /= 2) {
        if (threadIdx.x < s) {
            m[threadIdx.x] = max(m[threadIdx.x], m[threadIdx.x + s]);
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        out[0] = m[0];
    }
}
// allow-unknown: cvc5 postcondition:4 -- cvc5 proves it in about 13 s alone (the 8-term ite chain against 3 unrolled rounds); under the suite's load it may pass 20 s (z3: 0.4 s)
