// expect: verified
// cuRAND MTGP32: the 256 threads of each block draw together from their block's state &state[b]; curand() has each thread read s[t + offset + {0, 1, pos - 1, pos}] and write s[t + offset + 351] (mod 1024), with 3 <= pos <= 94, then barriers around thread 0's update of offset: the reads never meet the writes, and the blocks use different states. cuRAND numbers the threads with threadIdx.y and .z too, so the block's other dimensions are fixed at 1: a block of 256 x 6 threads races (MTGP32 allows at most 256).
#include <curand_kernel.h>
// allow-unknown: cvc5 data-race:8 -- 2 x 256 threads: cvc5 proves it alone in seconds, but not always within 20 s on a loaded machine; z3 proves it
/*@ requires gridDim.x == 2; requires blockDim.x == 256;
    requires blockDim.y == 1; requires blockDim.z == 1; */
__global__ void curand_mtgp32_block(curandStateMtgp32_t *state, unsigned int *out) {
    out[blockIdx.x * blockDim.x + threadIdx.x] = curand(&state[blockIdx.x]);
}
