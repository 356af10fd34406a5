// expect: verified
// allow-unknown: cvc5 loop-invariant-preserved:12 -- cvc5 leaves the rewritten goal (witness (k - tid) / 4) undecided in 10 s; z3 proves it in 0.1 s
// Paper §3.3.1 vector addition with the paper's own invariant, for 4 threads:
// k == l*4 + tid for some iteration count l, and the l indices handled so far are done.
// The witness l + 1 of the preservation check and the postcondition's instance m = j / 4
// come from the affine rewrites of the quantifiers (hoaregpu/smt/affine_quant.py).
/*@ requires gridDim.x == 1; requires blockDim.x == 4;
    ensures \forall int j; 0 <= j < n ==> c[j] == a[j] + b[j];
*/
__global__ void vector_add_fixed4_exists(int *a, int *b, int *c, int n) {
    int k = threadIdx.x;
    /*@ loop invariant \exists int l; k == l * 4 + threadIdx.x
            && \forall int m; 0 <= m < l ==> c[m * 4 + threadIdx.x] == a[m * 4 + threadIdx.x] + b[m * 4 + threadIdx.x];
    */
    while (k < n) {
        c[k] = a[k] + b[k];
        k = k + blockDim.x;
    }
}
