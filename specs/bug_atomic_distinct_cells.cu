// expect: failed postcondition:5
// Planted bug: atomicAdd returns the value *before* the addition, so old[tid] is not the new value.
/*@ requires blockDim.x == 4 && blockDim.y == 1 && blockDim.z == 1 && gridDim.x == 1 && gridDim.y == 1 && gridDim.z == 1;
    ensures hist[tid] == \old(hist[tid]) + 1;
    ensures old[tid] == hist[tid]; */
__global__ void bug_atomic_distinct_cells(int *hist, int *old) {
  old[threadIdx.x] = atomicAdd(&hist[threadIdx.x], 1);
}
