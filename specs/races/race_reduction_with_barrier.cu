// expect: verified
// The tree reduction with its barrier: race-free (the log invariants of the loop are inferred) and the sum is right.
/*@ requires gridDim.x == 1; requires blockDim.x == 4;
    ensures out[0] == in[0] + in[1] + in[2] + in[3];
*/
__global__ void reduction_with_barrier(int *in, int *out) {
    __shared__ int s[4];
    s[threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    int d = 2;
    /*@ loop invariant d == d @ 0;
        loop invariant (d == 2 && s[0] == in[0] && s[1] == in[1] && s[2] == in[2] && s[3] == in[3])
                    || (d == 1 && s[0] == in[0] + in[2] && s[1] == in[1] + in[3])
                    || (d == 0 && s[0] == in[0] + in[1] + in[2] + in[3]);
    */
    while (d > 0) {
        if (threadIdx.x < d) {
            s[threadIdx.x] = s[threadIdx.x] + s[threadIdx.x + d];
        }
        d = d / 2;
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        out[0] = s[0];
    }
}
