// expect: failed data-race:7
// cuRAND: every thread draws from one XORWOW state; curand() reads and writes the state's words v[0..4] and d (the stand-in header's body does what cuRAND's does), so the threads race on them.
#include <curand_kernel.h>
/*@ requires gridDim.x == 1; requires blockDim.x == 4;
*/
__global__ void curand_shared_state(curandState *state, unsigned int *out) {
    out[threadIdx.x] = curand(state);
}
