// expect: verified
// allow-unknown: cvc5 loop-invariant-preserved:10 loop-invariant-preserved:11 -- preserving these needs `k % blockDim.x` with two symbolic operands (nonlinear); z3 proves them, cvc5 does not reliably in 10 s
// Paper §3.3.1 vector addition for any thread count (the example of spec-language.md §1).
// `k % blockDim.x` is nonlinear (two symbolic operands): a stress test for the solvers.
/*@ requires gridDim.x == 1; requires n >= 0;
    ensures \forall int j; 0 <= j < n ==> c[j] == a[j] + b[j];
*/
__global__ void vector_add_symbolic(int *a, int *b, int *c, int n) {
    int k = threadIdx.x;
    /*@ loop invariant k % blockDim.x == threadIdx.x && k >= threadIdx.x;
        loop invariant \forall int j; 0 <= j < n && j % blockDim.x == threadIdx.x && j < k
                           ==> c[j] == a[j] + b[j];
    */
    while (k < n) {
        c[k] = a[k] + b[k];
        k = k + blockDim.x;
    }
}
// allow-unknown: cvc5 data-race:15 loop-invariant-preserved:14 -- the race VC and the inferred access invariant need `k % blockDim.x` (nonlinear); z3 proves them, cvc5 times out at 20 s
