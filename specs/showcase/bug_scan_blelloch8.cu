// expect: failed postcondition:4
// Planted bug in the Blelloch scan on 8 threads: the root is not cleared before the down-sweep, so every out[j] is off by the total of the inputs.
/*@ requires gridDim.x == 1; requires blockDim.x == 8;
    ensures \forall int j; 0 <= j < blockDim.x ==> out[j] == \sum(0, j - 1, \lambda int k; \old(in[k]));
*/
__global__ void bug_scan_blelloch8(int *in, int *out) {
    __shared__ int t[8];
    int i = threadIdx.x;
    t[i] = in[i];
    __syncthreads();
    for (int d = 1; d < blockDim.x; d *= 2) {  // up-sweep
        if ((i + 1) % (2 * d) == 0) t[i] += t[i - d];
        __syncthreads();
    }
    __syncthreads();
    for (int d = blockDim.x / 2; d > 0; d /= 2) {  // down-sweep
        if ((i + 1) % (2 * d) == 0) {
            int x = t[i - d];
            t[i - d] = t[i];
            t[i] += x;
        }
        __syncthreads();
    }
    out[i] = t[i];
}
