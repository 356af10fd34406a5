// expect: failed loop-invariant-preserved:8 data-race:11
// Planted bug (in the annotation): race_free_access_invariant.cu with an access invariant that is off by one (the written cell k is i + 1, not i). It is refuted, and the race check, which needs the right one, is not proved either: a wrong access invariant never verifies.
/*@ requires blockDim.x == 4;
    requires n >= 0;
*/
__global__ void shifted_stride(int *out, int n) {
    /*@ loop invariant i >= 0;
        loop invariant \forall int k; \written(out, k) ==> k % blockDim.x == threadIdx.x;
    */
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        out[i + 1] = i;
    }
}
