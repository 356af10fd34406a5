// expect: failed data-race:7
// Inter-block race on global memory: both blocks write out[threadIdx.x] (different values); a barrier orders one block only.
/*@ requires blockDim.x == 4;
    requires gridDim.x == 2;
*/
__global__ void inter_block(int *out) {
    out[threadIdx.x] = blockIdx.x;
    __syncthreads();
}
