// expect: failed postcondition:6
// Planted bug: f is threadIdx.x % 2, so with 2 or more threads it is 1 at thread 1 and
// `\all(f == 0)` is false. The other two postconditions hold.
/*@ requires gridDim.x == 1; ensures \none(f == 2);
    ensures \forall int t; 0 <= t < blockDim.x ==> f @ t == t % 2;
    ensures \all(f == 0);
*/
__global__ void at_all_wrong(int *out) {
    int f = threadIdx.x % 2;
    out[threadIdx.x] = f;
}
