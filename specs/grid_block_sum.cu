// expect: verified
// Per-block shared memory: every block stages its 4 inputs in its own copy of `s`, waits
// at its barrier, and thread 0 writes the block's sum. 3 blocks of 4 threads.
/*@ requires blockDim.x == 4;
    requires gridDim.x == 3;
    ensures \forall int b; 0 <= b < 3 ==>
                out[b] == in[4 * b] + in[4 * b + 1] + in[4 * b + 2] + in[4 * b + 3];
*/
__global__ void grid_block_sum(const int *in, int *out) {
    __shared__ int s[4];
    s[threadIdx.x] = in[blockIdx.x * 4 + threadIdx.x];
    __syncthreads();
    if (threadIdx.x == 0) {
        out[blockIdx.x] = s[0] + s[1] + s[2] + s[3];
    }
}
