// expect: verified
// Every block of a kernel that reads no blockIdx writes the same cells, but with the same value (read from memory no one writes): benign under the default policy (--benign-writes same-value).
/*@ requires blockDim.x == 4;
    ensures out[threadIdx.x] == 2 * in[threadIdx.x];
*/
__global__ void blocks_same_value(const int *in, int *out) {
    out[threadIdx.x] = 2 * in[threadIdx.x];
}
