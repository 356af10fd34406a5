// expect: failed postcondition:7
// Planted bug: the kernel relies on what a body-less function returns (it may return 0 for some thread); the refutation holds for some implementation of `nondet`.
__device__ int nondet(void);
__device__ void shuffle(int *data);

/*@ requires blockDim.x == 4;
    ensures out[tid] > 0; */
__global__ void bug_declared_only_function(int *out, int *scratch) {
  int x = nondet();
  if (x < 0) {
    x = -x;
  }
  out[threadIdx.x] = x;
  shuffle(scratch);
}
