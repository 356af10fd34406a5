// expect: verified
// The same two writes as race_write_write_statements.cu, ordered by a barrier: race-free, and a[0] ends as 2.
/*@ requires gridDim.x == 1; requires blockDim.x == 2;
    ensures a[0] == 2;
*/
__global__ void ordered_by_barrier(int *a) {
    if (threadIdx.x == 0) {
        a[0] = 1;
    }
    __syncthreads();
    if (threadIdx.x == 1) {
        a[0] = 2;
    }
}
