// expect: verified
// Atomics on cells of their own (one per thread): exact; each thread's atomicAdd returns the old value and atomicMax keeps the larger one.
/*@ requires blockDim.x == 4 && blockDim.y == 1 && blockDim.z == 1 && gridDim.x == 1 && gridDim.y == 1 && gridDim.z == 1;
    ensures hist[tid] == \old(hist[tid]) + 2;
    ensures old[tid] == \old(hist[tid]);
    ensures top[tid] >= \old(top[tid]) && top[tid] >= 10; */
__global__ void atomic_distinct_cells(int *hist, int *old, int *top) {
  old[threadIdx.x] = atomicAdd(&hist[threadIdx.x], 1);
  atomicAdd(hist + threadIdx.x, 1);
  atomicMax(&top[threadIdx.x], 10);
}
