// expect: verified
// File-scope memory: a __constant__ table whose initialiser is known on entry (the
// missing last entry is zero), a __device__ array in global memory, and memset.
__constant__ int WEIGHTS[4] = {3, 1, 2};
__device__ int scratch[4];
/*@ requires gridDim.x == 1; requires blockDim.x == 4;
    ensures \forall int j; 0 <= j < 4 ==> out[j] == in[j] * (j == 0 ? 3 : j == 1 ? 1 : j == 2 ? 2 : 0);
    ensures \forall int j; 0 <= j < 4 ==> scratch[j] == out[j] + 1;
*/
__global__ void constant_table(const int *in, int *out) {
    int buf[2];
    memset(buf, 0, sizeof(buf));
    out[threadIdx.x] = in[threadIdx.x] * WEIGHTS[threadIdx.x] + buf[1];
    scratch[threadIdx.x] = out[threadIdx.x] + 1;
}
