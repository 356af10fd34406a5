// expect: verified
// `__device__` functions declared without a body: each call returns an arbitrary value in its type's range, and may change arrays it gets a pointer to (not through a pointer to const, not when no thread calls it).
__device__ int nondet(void);
__device__ unsigned char sample(const int *table);
__device__ void shuffle(int *data);
// allow-unknown: z3,cvc5 data-race:19 -- a function declared without a body may access any cell of the arrays it gets, so a possible race with its accesses is undecided unless ruled out, never reported as found (docs/races.md)
/*@ requires gridDim.x == 1; requires blockDim.x == 4;
    ensures out[tid] >= 0 && out[tid] <= 255 + 2147483648;
    ensures table[tid] == \old(table[tid]); */
__global__ void declared_only_function(int *table, long long *out, int *scratch) {
  int x = nondet();
  if (x < 0) {
    x = -x;
  }
  out[threadIdx.x] = (long long)x + sample(table);
  if (threadIdx.x >= blockDim.x) {
    shuffle(table);
  }
  shuffle(scratch);
}
