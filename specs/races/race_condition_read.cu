// expect: failed data-race:9
// The read of a condition counts: thread 1 reads flag[0] in its `if` (line 9) after thread 0 wrote it (line 7), no barrier between.
/*@ requires blockDim.x == 2;
*/
__global__ void condition_read(int *flag, int *out) {
    if (threadIdx.x == 0) {
        flag[0] = 1;
    }
    if (flag[0] == 1) {
        out[threadIdx.x] = 1;
    }
}
