// expect: verified
// Blelloch work-efficient exclusive scan in shared memory on 8 threads: the up-sweep builds partial sums in a tree (thread t with (t + 1) % 2d == 0 adds t[t - d] into its cell), the root is cleared, and the down-sweep swaps and adds back down; out[j] is the sum of in[0..j-1]. Both loops have constant trip counts and are unrolled.
/*@ requires gridDim.x == 1; requires blockDim.x == 8;
    ensures \forall int j; 0 <= j < blockDim.x ==> out[j] == \sum(0, j - 1, \lambda int k; \old(in[k]));
*/
__global__ void scan_blelloch8(int *in, int *out) {
    __shared__ int t[8];
    t[threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    for (int d = 1; d < blockDim.x; d *= 2) {  // up-sweep
        if ((threadIdx.x + 1) % (2 * d) == 0) t[threadIdx.x] += t[threadIdx.x - d];
        __syncthreads();
    }
    if (threadIdx.x == blockDim.x - 1) t[threadIdx.x] = 0;
    __syncthreads();
    for (int d = blockDim.x / 2; d > 0; d /= 2) {  // down-sweep
        if ((threadIdx.x + 1) % (2 * d) == 0) {
            int x = t[threadIdx.x - d];
            t[threadIdx.x - d] = t[threadIdx.x];
            t[threadIdx.x] += x;
        }
        __syncthreads();
    }
    out[threadIdx.x] = t[threadIdx.x];
}
