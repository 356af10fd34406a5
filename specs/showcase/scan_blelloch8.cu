// expect: verified
// Blelloch work-efficient exclusive scan in shared memory on 8 threads: the up-sweep builds partial sums in a tree (thread i with (i + 1) % 2d == 0 adds t[i - d]), the root is cleared, and the down-sweep swaps and adds back down; out[j] is the sum of in[0..j-1]. Both loops have constant trip counts and are unrolled.
/*@ requires gridDim.x == 1; requires blockDim.x == 8;
    ensures \forall int j; 0 <= j < blockDim.x ==> out[j] == \sum(0, j - 1, \lambda int k; \old(in[k]));
*/
__global__ void scan_blelloch8(int *in, int *out) {
    __shared__ int t[8];
    int i = threadIdx.x;
    t[i] = in[i];
    __syncthreads();
    for (int d = 1; d < blockDim.x; d *= 2) {  // up-sweep
        if ((i + 1) % (2 * d) == 0) t[i] += t[i - d];
        __syncthreads();
    }
    if (i == blockDim.x - 1) t[i] = 0;
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
