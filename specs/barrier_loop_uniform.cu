// expect: verified
// A barrier inside a `for` loop whose trip count is uniform (an unassigned scalar parameter).
// The invariant `i == i @ 0` makes every thread agree on i, so the loop body's mask is
// all threads or none and the barrier does not diverge. Also \old inside an invariant.
/*@ requires gridDim.x == 1; requires n >= 0;
    ensures buf[threadIdx.x] == \old(buf[threadIdx.x]) + n;
*/
__global__ void barrier_loop_uniform(int *buf, int n) {
    int i;
    /*@ loop invariant 0 <= i && i <= n;
        loop invariant i == i @ 0;
        loop invariant buf[threadIdx.x] == \old(buf[threadIdx.x]) + i;
    */
    for (i = 0; i < n; i++) {
        buf[threadIdx.x] = buf[threadIdx.x] + 1;
        __syncthreads();
    }
}
