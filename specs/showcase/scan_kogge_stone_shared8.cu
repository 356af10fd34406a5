// expect: verified
// Kogge–Stone inclusive scan in shared memory on 8 threads: the input is loaded into a __shared__ array, scanned there (distance d doubling), and written back: out[j] is the sum of in[0..j].
/*@ requires gridDim.x == 1; requires blockDim.x == 8;
    ensures \forall int j; 0 <= j < blockDim.x ==> out[j] == \sum(0, j, \lambda int k; \old(in[k]));
*/
__global__ void scan_kogge_stone_shared8(int *in, int *out) {
    __shared__ int s[8];
    s[threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    /*@ loop invariant 1 <= d && d == d @ 0;
        loop invariant \forall int j; 0 <= j < blockDim.x ==>
                         s[j] == \sum(\max(0, j - d @ 0 + 1), j, \lambda int k; \old(in[k]));
    */
    for (int d = 1; d < blockDim.x; d *= 2) {
        int v = 0;
        if (threadIdx.x >= d) v = s[threadIdx.x - d];
        __syncthreads();
        s[threadIdx.x] += v;
        __syncthreads();
    }
    out[threadIdx.x] = s[threadIdx.x];
}
