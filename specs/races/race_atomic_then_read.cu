// expect: failed data-race:7
// An atomic update and a plain read of the same cell by another thread race: thread t reads count[0] while others still add to it.
/*@ requires blockDim.x == 4 && blockDim.y == 1 && blockDim.z == 1 && gridDim.x == 1 && gridDim.y == 1 && gridDim.z == 1;
*/
__global__ void atomic_then_read(int *count, int *out) {
    atomicAdd(&count[0], 1);
    out[threadIdx.x] = count[0];
}
