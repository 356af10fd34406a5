// expect: verified
// `bool` locals (stored as e != 0) and the conditional operator `c ? x : y`, in code and
// in a postcondition. Any thread count.
/*@ requires gridDim.x == 1; ensures out[threadIdx.x] == threadIdx.x % 2;
    ensures big[threadIdx.x] == (threadIdx.x >= 2 ? threadIdx.x : 2);
    ensures big[threadIdx.x] >= 2 && big[threadIdx.x] >= threadIdx.x;
*/
__global__ void ternary_bool(int *out, int *big) {
    bool odd = threadIdx.x % 2 == 1;
    out[threadIdx.x] = odd ? 1 : 0;
    int m = threadIdx.x > 2 ? threadIdx.x : 2;
    big[threadIdx.x] = m;
}
