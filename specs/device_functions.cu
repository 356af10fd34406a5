// expect: verified
// __device__ functions are inlined at each call: a helper with a loop and its own
// invariants (proved at both calls), a helper writing through an array parameter, and a
// helper with a barrier (reached by all threads, so no divergence).
__device__ int sum3(const int *a, int i) {
    int s = 0;
    /*@ loop invariant 0 <= k && k <= 3;
        loop invariant s == k * a[i];
    */
    for (int k = 0; k < 3; k++) {
        s += a[i];
    }
    return s;
}
__device__ void put(int *p, int i, int v) { p[i] = v; }
__device__ void barrier(void) { __syncthreads(); }
/*@ requires blockDim.x == 4;
    ensures \forall int j; 0 <= j < 4 ==> out[j] == 6 * a[j];
*/
__global__ void device_functions(const int *a, int *out) {
    int x = sum3(a, threadIdx.x) + sum3(a, threadIdx.x);
    barrier();
    put(out, threadIdx.x, x);
}
