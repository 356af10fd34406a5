// expect: failed data-race:6
// Every block of a kernel that reads no blockIdx accesses the same global cells: with an open grid (no `requires gridDim.x == 1`), two blocks increment a[threadIdx.x] with no barrier between them.
/*@ requires blockDim.x == 4;
*/
__global__ void blocks_unread_index(int *a) {
    a[threadIdx.x] += 1;
}
