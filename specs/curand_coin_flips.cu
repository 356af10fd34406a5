// expect: verified
// cuRAND through the stand-in header: its functions touch the state as cuRAND's do (each thread its own state here, so no race) and yield arbitrary numbers in their types' ranges; what holds for every number is proved.
#include <curand_kernel.h>
// allow-unknown: cvc5 postcondition:6 data-race:8 data-race:9 data-race:10 unsigned-wrap:8 unsigned-wrap:9 unsigned-wrap:10 -- cvc5 leaves these undecided at 20 s on a loaded machine (the inlined cuRAND bodies' stores to the per-thread state arrays); z3 proves them
/*@ requires gridDim.x == 1; requires blockDim.x == 8;
    ensures heads[tid] == 0 || heads[tid] == 1; */
__global__ void curand_coin_flips(curandState *state, int *heads) {
  curand_init(42, threadIdx.x, 0, &state[threadIdx.x]);
  unsigned int r = curand(&state[threadIdx.x]);
  heads[threadIdx.x] = r % 2;
}
