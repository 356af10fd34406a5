// expect: failed barrier-divergence:15
// allow-unknown: cvc5 postcondition:8 -- the writer of out[k] (as in grid_vector_add); z3 proves it
// Planted bug: threads past the end return before the barrier; when n is not a multiple
// of the block size, the last block reaches __syncthreads() with only some of its threads.
/*@ requires blockDim.x == 4;
    requires gridDim.x == 2;
    requires 0 < n && n <= 8;
    ensures \forall int k; 0 <= k < n ==> out[k] == in[k];
*/
__global__ void bug_grid_return_before_barrier(const int *in, int *out, int n) {
    __shared__ int s[4];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    s[threadIdx.x] = in[i];
    __syncthreads();
    out[i] = s[threadIdx.x];
}
