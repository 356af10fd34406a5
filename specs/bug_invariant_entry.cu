// expect: failed loop-invariant-entry:11
// Planted bug: the loop starts at i = 1 instead of 0, so `acc == 3 * i` is false on entry
// (acc == 0, i == 1); it is preserved by the body and gives the postcondition, so only the
// entry check catches the bug (the kernel really computes 3 * (n - 1)).
/*@ requires n >= 1;
    ensures out[threadIdx.x] == 3 * n;
*/
__global__ void bug_invariant_entry(int *out, int n) {
    int acc = 0;
    /*@ loop invariant 0 <= i <= n;
        loop invariant acc == 3 * i;
    */
    for (int i = 1; i < n; i++) {
        acc += 3;
    }
    out[threadIdx.x] = acc;
}
