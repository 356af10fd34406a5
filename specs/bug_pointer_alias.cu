// expect: failed postcondition:4
// Planted bug: the second pointer into the shared array starts one cell early (lo + 3, not lo + 4), so what is written through it is not what the other pointer reads.
/*@ requires gridDim.x == 1; requires blockDim.x == 4;
    ensures \forall int j; 0 <= j < 4 ==> out[j] == 10 * j + 7;
*/
__global__ void pointer_aliasing(int *out) {
    __shared__ int s[8];
    int *lo = s;
    int *hi = s + 4;
    int *same = lo + 3;
    same[threadIdx.x] = 10 * threadIdx.x + 7;
    __syncthreads();
    out[threadIdx.x] = hi[threadIdx.x];
}
