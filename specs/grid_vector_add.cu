// expect: verified
// allow-unknown: cvc5 postcondition:7 -- the writer of c[k] is the thread numbered k: z3 finds it, cvc5 does not instantiate the quantifier in 10 s
// Vector addition over a grid of blocks of any sizes (spec-language §5): the first line of
// almost every CUDA kernel, `i = blockIdx.x * blockDim.x + threadIdx.x`, and a guard.
/*@ requires n >= 0;
    requires gridDim.x * blockDim.x >= n;
    ensures \forall int k; 0 <= k < n ==> c[k] == a[k] + b[k];
*/
__global__ void grid_vector_add(const int *a, const int *b, int *c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        c[i] = a[i] + b[i];
    }
}
