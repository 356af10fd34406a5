// expect: failed postcondition:4
// Planted bug: the lane is computed with the mask 1 instead of 3, so threads 2 and 3 of each group of 4 get the wrong lane (exact encoding: refuted and confirmed by execution).
/*@ requires blockDim.x == 8;
    ensures \forall int j; 0 <= j < 8 ==> lane[j] == j % 4;
*/
__global__ void bug_bitmask(int *lane) {
    lane[threadIdx.x] = threadIdx.x & 1;
}
