// expect: verified
// float/double values are opaque but copies are exact: a block reverses a float array through a __shared__ tile and widens it to double; a literal is one constant.
/*@ requires blockDim.x == 4;
    ensures \forall int j; 0 <= j < 4 ==> out[j] == \old(in[3 - j]);
    ensures \forall int j; 0 <= j < 4 ==> wide[j] == \old(in[j]);
    ensures \forall int j; 0 <= j < 4 ==> zero[j] == 0.0f && zero[j] != 1.5;
*/
__global__ void float_copy(float *in, float *out, double *wide, float *zero) {
    __shared__ float tile[4];
    float v = in[threadIdx.x];
    tile[threadIdx.x] = v;
    __syncthreads();
    out[threadIdx.x] = tile[3 - threadIdx.x];
    wide[threadIdx.x] = v;
    zero[threadIdx.x] = 0;
}
