// expect: failed postcondition:6 barrier-divergence:13
// Planted bugs in the unrolled tree reduction: the loop stops at s == 2 (`s > 1`), so the last
// step a[0] += a[1] is missing; and the barrier moved into the branch diverges in each copy.
/*@ requires gridDim.x == 1; requires blockDim.x == 8;
    ensures a[4] == \old(a[4]);
    ensures a[0] == \old(a[0]) + \old(a[1]) + \old(a[2]) + \old(a[3])
                  + \old(a[4]) + \old(a[5]) + \old(a[6]) + \old(a[7]);
*/
__global__ void bug_unroll_tree_reduction8(int *a) {
    for (int s = 4; s > 1; s /= 2) {
        if (threadIdx.x < s) {
            a[threadIdx.x] += a[threadIdx.x + s];
            __syncthreads();
        }
    }
}
