// expect: verified
// cuRAND: each thread initialises and draws from its own XORWOW state &states[t] (the common idiom): no two threads touch one state, so no race; what holds for every number is proved.
#include <curand_kernel.h>
// allow-unknown: cvc5 postcondition:6 data-race:9 data-race:10 data-race:11 unsigned-wrap:9 unsigned-wrap:10 unsigned-wrap:11 -- cvc5 leaves these undecided at 20 s on a loaded machine (the inlined cuRAND bodies' stores to the per-thread state arrays); z3 proves them
/*@ requires gridDim.x == 1; requires blockDim.x == 4;
    ensures heads[tid] == 0 || heads[tid] == 1; */
__global__ void curand_own_state(curandState *states, int *heads, float *u) {
    int t = threadIdx.x;
    curand_init(1234, t, 0, &states[t]);
    heads[t] = curand(&states[t]) % 2;
    u[t] = curand_uniform(&states[t]);
}
