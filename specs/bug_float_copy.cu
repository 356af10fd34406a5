// expect: failed postcondition:4
// Planted bug: the reversal reads the tile at 4 - tid (off by one); copies are exact, so the refutation needs no float semantics.
/*@ requires gridDim.x == 1; requires blockDim.x == 4;
    ensures \forall int j; 0 <= j < 4 ==> out[j] == \old(in[3 - j]);
*/
__global__ void bug_float_copy(float *in, float *out) {
    __shared__ float tile[5];
    tile[threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = tile[4 - threadIdx.x];
}
