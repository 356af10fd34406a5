// expect: failed data-race:9
// Overlapping strides: 4 threads step by 2, so threads t and t + 2 write the same cells (different values).
/*@ requires blockDim.x == 4;
    requires n >= 0;
*/
__global__ void overlapping_strides(int *out, int n) {
    /*@ loop invariant i >= 0; */
    for (int i = threadIdx.x; i < n; i += 2) {
        out[i] = threadIdx.x;
    }
}
