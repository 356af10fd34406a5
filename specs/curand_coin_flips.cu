// expect: verified
// cuRAND through the stand-in header: its functions are declared without a body, so each number is arbitrary in its type's range and the generator state changes arbitrarily; what holds for every number is proved.
#include <curand_kernel.h>
// allow-unknown: z3,cvc5 data-race:8 data-race:9 -- a function declared without a body may access any cell of the arrays it gets, so a possible race with its accesses is undecided unless ruled out, never reported as found (docs/races.md)
/*@ requires gridDim.x == 1; requires blockDim.x == 8;
    ensures heads[tid] == 0 || heads[tid] == 1; */
__global__ void curand_coin_flips(curandState *state, int *heads) {
  curand_init(42, threadIdx.x, 0, &state[threadIdx.x]);
  unsigned int r = curand(&state[threadIdx.x]);
  heads[threadIdx.x] = r % 2;
}
