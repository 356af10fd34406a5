// expect: verified
// `\all(e)` and `\none(e)` (Definition 3.5): after a loop, H-WHILE gives none(k < n); the
// invariant gives all(k >= threadIdx.x). Inside a branch taken by thread 0 only, \all
// still speaks of every thread.
/*@ requires gridDim.x == 1; requires n >= 0;
    ensures \none(k < n);
    ensures \all(k >= n);
    ensures \all(k >= threadIdx.x);
    ensures \forall int j; 0 <= j < blockDim.x ==> out[j] == k @ j;
*/
__global__ void all_none(int *out, int n) {
    int k = threadIdx.x;
    /*@ loop invariant k >= threadIdx.x;
    */
    while (k < n) {
        k += blockDim.x;
    }
    if (threadIdx.x == 0) {
        //@ assert \all(k >= n);
        //@ assert \none(k < threadIdx.x);
    }
    out[threadIdx.x] = k;
}
// allow-unknown: cvc5 loop-invariant-preserved:15 -- the inferred access invariant of the loop (race checking); z3 proves it, cvc5 times out at 20 s
