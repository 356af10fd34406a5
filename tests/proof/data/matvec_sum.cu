// A matrix-vector product for any n: each thread's loop invariant is a \sum over a symbolic range
// whose body reads two arrays at the thread's row (tid in the body: one function per thread).
/*@ requires gridDim.x == 1; requires n >= 0;
    ensures \forall int r; 0 <= r < blockDim.x ==> y[r] == \sum(0, n - 1, \lambda int k; A[r * n + k] * x[k]);
*/
__global__ void matvec(const int *A, const int *x, int *y, int n) {
    int acc = 0;
    /*@ loop invariant 0 <= k && k <= n;
        loop invariant acc == \sum(0, k - 1, \lambda int i; A[threadIdx.x * n + i] * x[i]);
    */
    for (int k = 0; k < n; k++) {
        acc += A[threadIdx.x * n + k] * x[k];
    }
    y[threadIdx.x] = acc;
}
