// expect: verified
// Float arithmetic is uninterpreted but deterministic: the same expression of the same values gives the same value, and a branch on a float comparison keeps the value it chose.
/*@ requires gridDim.x == 1; ensures \forall int j; 0 <= j < blockDim.x ==> c[j] == d[j];
    ensures \forall int j; 0 <= j < blockDim.x ==> m[j] == \old(a[j]) || m[j] == \old(b[j]);
*/
__global__ void float_opaque_arith(float *a, float *b, float *c, float *d, float *m) {
    float x = a[threadIdx.x];
    float y = b[threadIdx.x];
    c[threadIdx.x] = x * y + 1.0f;
    d[threadIdx.x] = a[threadIdx.x] * b[threadIdx.x] + 1;
    if (x < y) {
        m[threadIdx.x] = y;
    } else {
        m[threadIdx.x] = x;
    }
}
