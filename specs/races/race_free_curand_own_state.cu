// expect: verified
// cuRAND: each thread initialises and draws from its own XORWOW state &states[t] (the common idiom): no two threads touch one state, so no race; what holds for every number is proved.
#include <curand_kernel.h>
/*@ requires gridDim.x == 1; requires blockDim.x == 4;
    ensures heads[tid] == 0 || heads[tid] == 1; */
__global__ void curand_own_state(curandState *states, int *heads, float *u) {
    int t = threadIdx.x;
    curand_init(1234, t, 0, &states[t]);
    heads[t] = curand(&states[t]) % 2;
    u[t] = curand_uniform(&states[t]);
}
