// expect: verified
// `break` by masks: each thread counts up to its id but stops at 2. The invariant describes
// the loop head; what a thread knew when it broke out (k == 2) is kept by the verifier
// (its locals are frozen while the others go on), so the invariant need not restate it.
/*@ requires blockDim.x == 4;
    ensures \forall int j; 0 <= j < 4 ==> out[j] == (j < 2 ? j : 2);
*/
__global__ void break_search(int *out) {
    int k = 0;
    /*@ loop invariant 0 <= k && k <= threadIdx.x && k <= 2; */
    while (k < threadIdx.x) {
        if (k == 2)
            break;
        k++;
    }
    out[threadIdx.x] = k;
}
