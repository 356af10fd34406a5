// expect: failed postcondition:4
// Planted bug in the count: `>= 0` also flags zero inputs, so the flags can outnumber the positive inputs.
/*@ requires blockDim.x == 8;
    ensures \numof(0, blockDim.x - 1, \lambda int k; pos[k] != 0)
            == \numof(0, blockDim.x - 1, \lambda int k; \old(a[k]) > 0);
*/
__global__ void bug_numof_positive(int *a, int *pos) {
    pos[threadIdx.x] = a[threadIdx.x] >= 0;
}
