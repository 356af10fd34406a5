// expect: failed loop-invariant-preserved:14
// allow-unknown: cvc5 loop-invariant-preserved:14 -- cvc5 finds no model of the per-thread invariants for a symbolic thread count in 10 s; z3 refutes it
// Planted bug: the invariant `acc <= 2` holds on entry (acc == 0) but is not inductive:
// from i == 1, acc == 2 with n > 1 the body makes acc == 4. The other clauses are
// inductive and (with the exit condition) prove the postcondition.
/*@ requires gridDim.x == 1; requires n >= 0;
    ensures out[threadIdx.x] == 2 * n;
*/
__global__ void bug_invariant_not_preserved(int *out, int n) {
    int acc = 0;
    int i = 0;
    /*@ loop invariant 0 <= i && i <= n;
        loop invariant acc == 2 * i;
        loop invariant acc <= 2;
    */
    while (i < n) {
        acc += 2;
        i++;
    }
    out[threadIdx.x] = acc;
}
