// expect: verified
// A strided loop that writes one cell past its index: thread t writes t + 1, t + 5, t + 9, ... The loop invariant about the accesses (\written) says so; the race checks need it (the inferred invariants speak of a cell indexed by the loop variable itself, not of i + 1).
/*@ requires gridDim.x == 1; requires blockDim.x == 4;
    requires n >= 0;
*/
__global__ void shifted_stride(int *out, int n) {
    /*@ loop invariant i >= 0;
        loop invariant \forall int k; \written(out, k) ==> k >= 1 && (k - 1) % blockDim.x == threadIdx.x;
    */
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        out[i + 1] = i;
    }
}
