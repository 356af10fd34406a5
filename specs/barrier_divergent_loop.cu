// expect: failed barrier-divergence:13
// A barrier inside a loop whose trip count depends on the thread (thread t iterates t times):
// with 2 threads, the first iteration runs with mask {1} only, so the barrier diverges.
// The invariant and the postcondition are fine.
/*@ requires gridDim.x == 1; ensures out[threadIdx.x] == threadIdx.x;
*/
__global__ void barrier_divergent_loop(int *out) {
    int i = 0;
    /*@ loop invariant 0 <= i && i <= threadIdx.x;
    */
    while (i < threadIdx.x) {
        i++;
        __syncthreads();
    }
    out[threadIdx.x] = i;
}
