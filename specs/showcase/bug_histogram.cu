// expect: failed postcondition:6 data-race:10
// Planted bug in the histogram: a plain `hist[in[i]] += 1` instead of atomicAdd. Threads with the same bin race on it, and the increments of one step are lost (every such thread reads the same old count).
/*@ requires blockDim.x == 8 && blockDim.y == 1 && blockDim.z == 1 && gridDim.x == 2 && gridDim.y == 1 && gridDim.z == 1;
    requires \forall int k; 0 <= k < 16 ==> 0 <= in[k] && in[k] < 4;
    requires \forall int b; 0 <= b < 4 ==> hist[b] == 0;
    ensures \forall int b; 0 <= b < 4 ==> hist[b] == \numof(0, 15, \lambda int k; \old(in[k]) == b);
*/
__global__ void bug_histogram(const int *in, int *hist) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    hist[in[i]] += 1;
}
