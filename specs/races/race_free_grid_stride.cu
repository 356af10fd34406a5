// expect: verified
// allow-unknown: cvc5 loop-invariant-preserved:10 -- cvc5 does not prove the inferred invariant about the recorded cell modulo the grid size in 20 s on a loaded machine (z3 does)
// A grid-stride loop over 2 blocks of 4 threads: thread g handles g, g + 8, g + 16, ...; race-free with no invariant about accesses (they are inferred).
/*@ requires blockDim.x == 4;
    requires gridDim.x == 2;
    requires n >= 0;
*/
__global__ void grid_stride(int *out, int n) {
    /*@ loop invariant i >= 0; */
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        out[i] = 2 * i;
    }
}
