// expect: failed postcondition:6
// Planted bug: vector addition (4 threads) whose loop stops one element early
// (`k < n - 1`), so c[n-1] is never written. The invariant is correct for this loop and
// is proved; the postcondition is refuted (e.g. n == 1: c[0] keeps its old value).
/*@ requires gridDim.x == 1; requires blockDim.x == 4;
    ensures \forall int j; 0 <= j < n ==> c[j] == a[j] + b[j];
*/
__global__ void bug_off_by_one(int *a, int *b, int *c, int n) {
    int k = threadIdx.x;
    /*@ loop invariant k % 4 == threadIdx.x;
        loop invariant k >= threadIdx.x;
        loop invariant \forall int j; 0 <= j < n && j % 4 == threadIdx.x && j < k ==> c[j] == a[j] + b[j];
    */
    while (k < n - 1) {
        c[k] = a[k] + b[k];
        k = k + blockDim.x;
    }
}
