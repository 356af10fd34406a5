// expect: failed postcondition:4 postcondition:5
// Planted bug: postconditions written with floor / Euclidean semantics. In C, -7 / 2 == -3
// and -7 % 2 == -1, so the first two are refuted; the C identity q*2 + r == m holds.
/*@ requires gridDim.x == 1; ensures q == -4;
    ensures r == 1;
    ensures 2 * q + r == m;
*/
__global__ void c_division_wrong(int *out) {
    int m = -7;
    int q = m / 2;
    int r = m % 2;
    out[threadIdx.x] = q + r;
}
