// expect: failed data-race:7
// Intra-statement race: in one assignment thread t reads a[t + 1], which thread t + 1 writes.
/*@ requires blockDim.x == 4;
*/
__global__ void intra_statement(int *a) {
    if (threadIdx.x < 3) {
        a[threadIdx.x] = a[threadIdx.x + 1];
    }
}
