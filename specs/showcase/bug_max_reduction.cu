// expect: failed postcondition:4 postcondition:5
// Planted bug in the max tree reduction: the loop stops at `s > 1`, so the last round (m[0] against m[1]) never runs and out[0] is the max of only half the inputs.
/*@ requires blockDim.x == 8 && gridDim.x == 1;
    ensures out[0] == \max(0, 7, \lambda int k; \old(in[k]));
    ensures \forall int j; 0 <= j < 8 ==> out[0] >= \old(in[j]);
*/
__global__ void bug_max_reduction(const int *in, int *out) {
    __shared__ int m[8];
    m[threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    for (int s = blockDim.x / 2; s > 1; s /= 2) {
        if (threadIdx.x < s) {
            m[threadIdx.x] = max(m[threadIdx.x], m[threadIdx.x + s]);
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        out[0] = m[0];
    }
}
// allow-unknown: cvc5 postcondition:5 -- cvc5 refutes the \max clause but does not finish the \forall clause in 30 s (z3 refutes both, confirmed by execution)
