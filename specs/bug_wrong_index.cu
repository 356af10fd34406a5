// expect: failed loop-invariant-preserved:13
// allow-unknown: z3,cvc5 loop-invariant-preserved:13 -- refuting it needs a model of the quantified invariant over k % 4; neither solver finds one in 10 s (`hoaregpu test` shows the bug by execution)
// Planted bug: vector addition (4 threads) reading b[k + 1] instead of b[k]. With the
// intended invariant, the clause about c is not preserved by the body (c[k] gets
// a[k] + b[k+1]); the other clauses hold, and the postcondition follows from the invariant.
/*@ requires gridDim.x == 1; requires blockDim.x == 4;
    ensures \forall int j; 0 <= j < n ==> c[j] == a[j] + b[j];
*/
__global__ void bug_wrong_index(int *a, int *b, int *c, int n) {
    int k = threadIdx.x;
    /*@ loop invariant k % 4 == threadIdx.x;
        loop invariant k >= threadIdx.x;
        loop invariant \forall int j; 0 <= j < n && j % 4 == threadIdx.x && j < k ==> c[j] == a[j] + b[j];
    */
    while (k < n) {
        c[k] = a[k] + b[k + 1];
        k = k + blockDim.x;
    }
}
