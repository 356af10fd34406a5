// expect: verified
// A `for` loop with its counter declared in the init (`for (int i = 0; ...)`), used by the
// invariant; `+=` and `i++` in the body and step; chained comparison in the invariant.
/*@ requires gridDim.x == 1; requires n >= 0;
    ensures out[threadIdx.x] == 3 * n;
*/
__global__ void for_loop_accumulate(int *out, int n) {
    int acc = 0;
    /*@ loop invariant 0 <= i <= n;
        loop invariant acc == 3 * i;
    */
    for (int i = 0; i < n; i++) {
        acc += 3;
    }
    out[threadIdx.x] = acc;
}
