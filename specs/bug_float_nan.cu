// expect: failed postcondition:5
// Planted bug: `x == x` is false when x is NaN, so r[j] == 1 is wrong; float `==` is uninterpreted, and runs with ordinary inputs do not produce a NaN, so the refutation stays undecided — but it is never proved.
// allow-unknown: z3,cvc5 postcondition:5 -- the counterexample needs a NaN, which the replay's inputs are not
/*@ requires blockDim.x == 2;
    ensures \forall int j; 0 <= j < 2 ==> r[j] == 1;
*/
__global__ void bug_float_nan(float *a, int *r) {
    float x = a[threadIdx.x];
    r[threadIdx.x] = x == x;
}
