// expect: verified
// A textbook shared-memory reduction with 4 threads and 8 inputs: each thread adds two
// inputs into a __shared__ array, then a `for` loop halves the stride with `>>=`.
// Thread 0 writes the total. Uses a declaration in the for-init inside the invariant.
/*@ requires gridDim.x == 1; requires blockDim.x == 4;
    ensures out[0] == in[0] + in[1] + in[2] + in[3] + in[4] + in[5] + in[6] + in[7];
*/
__global__ void reduce_shared_for_n4(int *in, int *out) {
    __shared__ int sdata[4];
    sdata[threadIdx.x] = in[threadIdx.x] + in[threadIdx.x + blockDim.x];
    __syncthreads();
    /*@ loop invariant s == s @ 0;
        loop invariant (s @ 0 == 2 && sdata[0] == in[0] + in[4] && sdata[1] == in[1] + in[5]
                                   && sdata[2] == in[2] + in[6] && sdata[3] == in[3] + in[7])
                    || (s @ 0 == 1 && sdata[0] == in[0] + in[4] + in[2] + in[6]
                                   && sdata[1] == in[1] + in[5] + in[3] + in[7])
                    || (s @ 0 == 0 && sdata[0] == in[0] + in[1] + in[2] + in[3]
                                                + in[4] + in[5] + in[6] + in[7]);
    */
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) {
            sdata[threadIdx.x] += sdata[threadIdx.x + s];
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        out[0] = sdata[0];
    }
}
