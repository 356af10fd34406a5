// expect: verified
// Race-free across blocks: thread (b, t) writes out[b * blockDim.x + t], its own global index.
/*@ requires blockDim.x == 4;
    requires gridDim.x == 2;
    ensures \forall int j; 0 <= j < 8 ==> out[j] == j / 4;
*/
__global__ void inter_block_ok(int *out) {
    out[blockIdx.x * blockDim.x + threadIdx.x] = blockIdx.x;
}
