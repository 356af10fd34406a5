// expect: failed barrier-divergence:14
// allow-unknown: cvc5 postcondition:6 -- cvc5 times out on the guarded write for a symbolic thread count (the same shape with `if (i < n)` and no return does too); z3 proves it
// Planted bug: threads past n return before the barrier, so when 0 < n < blockDim.x the
// barrier is reached by some threads of the block but not all (strict H-SYNC, §7).
/*@ requires gridDim.x == 1; requires n >= 1;
    ensures \forall int j; 0 <= j < n && j < blockDim.x ==> out[j] == in[j];
*/
__global__ void bug_return_before_barrier(const int *in, int *out, int n) {
    __shared__ int tile[1024];
    int i = threadIdx.x;
    if (i >= n)
        return;
    tile[i] = in[i];
    __syncthreads();
    out[i] = tile[i];
}
