// expect: failed postcondition:4
// Planted bug: the postcondition claims the lost update of a plain `count[0] += 1`; with atomics the four increments all land. Refuted through the over-approximation and confirmed by execution.
/*@ requires blockDim.x == 4 && blockDim.y == 1 && blockDim.z == 1 && gridDim.x == 1 && gridDim.y == 1 && gridDim.z == 1;
    ensures count[0] == \old(count[0]) + 1; */
__global__ void bug_atomic_lost_update(int *count) {
  atomicAdd(&count[0], 1);
}
