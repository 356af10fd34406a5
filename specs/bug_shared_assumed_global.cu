// expect: failed postcondition:6
// Planted bug: block 0 sets a __shared__ flag and every block reads it after its barrier,
// as if shared memory were global. Block 1 reads its own, never written, copy.
/*@ requires blockDim.x == 2;
    requires gridDim.x == 2;
    ensures \forall int b; 0 <= b < 2 ==> out[b] == 42;
*/
__global__ void bug_shared_assumed_global(int *out) {
    __shared__ int flag;
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        flag = 42;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        out[blockIdx.x] = flag;
    }
}
