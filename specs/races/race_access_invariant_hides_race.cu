// expect: failed loop-invariant-preserved:8
// Planted bug: a sliding window, thread t writes t + i at iteration i, so thread t + 1 wrote that cell one iteration before (a race). The wrong access invariant "nothing written in this barrier interval" would hide it: assumed at the loop head, it makes the race check pass; but it is proved as a loop invariant first (H-WHILE), and refuted, so the kernel is not verified.
/*@ requires gridDim.x == 1; requires blockDim.x == 4;
    requires n >= 0;
*/
__global__ void sliding_window(int *out, int n) {
    /*@ loop invariant 0 <= i && i == i @ 0;
        loop invariant !\written(out);
    */
    for (int i = 0; i < n; i++) {
        out[i + threadIdx.x] = threadIdx.x;
    }
}
