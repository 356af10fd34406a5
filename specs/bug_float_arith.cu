// expect: failed postcondition:4
// Planted bug: one side subtracts where the other adds; the refutation goes through uninterpreted float operations and counts because a run confirms it.
/*@ requires blockDim.x == 2;
    ensures \forall int j; 0 <= j < 2 ==> c[j] == d[j];
*/
__global__ void bug_float_arith(float *a, float *b, float *c, float *d) {
    c[threadIdx.x] = a[threadIdx.x] + b[threadIdx.x];
    d[threadIdx.x] = a[threadIdx.x] - b[threadIdx.x];
}
