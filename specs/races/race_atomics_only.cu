// expect: verified
// Atomic updates of one cell never race with each other: every thread adds 1 to count[0].
/*@ requires blockDim.x == 4 && blockDim.y == 1 && blockDim.z == 1 && gridDim.x == 1 && gridDim.y == 1 && gridDim.z == 1;
*/
__global__ void atomics_only(int *count) {
    atomicAdd(&count[0], 1);
}
