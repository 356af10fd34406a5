// expect: verified
// allow-unknown: cvc5 postcondition:6 -- cvc5 times out on the guarded write for a symbolic thread count (the same shape with `if (i < n)` and no return does too); z3 proves it
// The first lines of most CUDA kernels: a thread past the end returns early (mask semantics:
// the rest of the kernel runs under `if (!returned)`), for any thread count and any n.
/*@ requires gridDim.x == 1; requires n >= 0;
    ensures \forall int j; 0 <= j < n && j < blockDim.x ==> out[j] == 2 * in[j] + 1;
*/
__global__ void early_return_guard(const int *in, int *out, int n) {
    int i = threadIdx.x;
    if (i >= n) return;
    out[i] = 2 * in[i] + 1;
}
