// expect: failed postcondition:7
// Planted bug: the kernel relies on what a body-less function returns (it may return 0 for some thread); the refutation holds for some implementation of `nondet`.
__device__ int nondet(void);
__device__ void shuffle(int *data);
// allow-unknown: z3,cvc5 data-race:14 -- a function declared without a body may access any cell of the arrays it gets, so a possible race with its accesses is undecided unless ruled out, never reported as found (docs/races.md)
/*@ requires gridDim.x == 1; requires blockDim.x == 4;
    ensures out[tid] > 0; */
__global__ void bug_declared_only_function(int *out, int *scratch) {
  int x = nondet();
  if (x < 0) {
    x = -x;
  }
  out[threadIdx.x] = x;
  shuffle(scratch);
}
