// expect: verified
// allow-unknown: cvc5 postcondition:8 -- as grid_vector_add: cvc5 does not find the writer of out[k] in 10 s
// The usual bounds check by early exit: threads past the end return; the others scale one
// element each. Blocks of 128 threads (fixed), any number of blocks.
/*@ requires blockDim.x == 128;
    requires n >= 0;
    requires gridDim.x * 128 >= n;
    ensures \forall int k; 0 <= k < n ==> out[k] == 2 * in[k];
*/
__global__ void grid_early_return(const int *in, int *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    out[i] = 2 * in[i];
}
