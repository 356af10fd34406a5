// Test data: `requires n == 12345 && m * 3 == n + 6 && a[2] == 77` is (almost) never hit by
// sampling; the postcondition fails exactly when m == 4117, i.e. on every admissible input.
/*@ requires n == 12345 && m * 3 == n + 6 && a[2] == 77;
    ensures out[0] == a[2];
*/
__global__ void hard(int *a, int *out, int n, int m) {
    if (threadIdx.x == 0) {
        out[0] = a[2] + (m == 4117 ? 1 : 0);
    }
}
