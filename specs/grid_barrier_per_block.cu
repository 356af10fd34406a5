// expect: verified
// A barrier inside `if (blockIdx.x == 0)`: all threads of block 0 reach it and none of the
// others, which is no barrier divergence, since __syncthreads() synchronises one block (§7,
// per block). Block 0 reverses its 4 inputs through shared memory; the others copy theirs.
/*@ requires blockDim.x == 4;
    requires gridDim.x == 2;
    ensures \forall int t; 0 <= t < 4 ==> out[t] == in[3 - t];
    ensures \forall int t; 4 <= t < 8 ==> out[t] == in[t];
*/
__global__ void grid_barrier_per_block(const int *in, int *out) {
    __shared__ int s[4];
    int i = blockIdx.x * 4 + threadIdx.x;
    if (blockIdx.x == 0) {
        s[threadIdx.x] = in[i];
        __syncthreads();
        out[i] = s[3 - threadIdx.x];
    } else {
        out[i] = in[i];
    }
}
