// expect: verified
// cuRAND through the stand-in header: its functions touch the state as cuRAND's do (each thread its own state here, so no race) and yield arbitrary numbers in their types' ranges; what holds for every number is proved.
#include <curand_kernel.h>
/*@ requires gridDim.x == 1; requires blockDim.x == 8;
    ensures heads[tid] == 0 || heads[tid] == 1; */
__global__ void curand_coin_flips(curandState *state, int *heads) {
  curand_init(42, threadIdx.x, 0, &state[threadIdx.x]);
  unsigned int r = curand(&state[threadIdx.x]);
  heads[threadIdx.x] = r % 2;
}
