// expect: verified
#include <cuda_runtime.h>
#define TILE 4
#define SCALE 3
#define OFFSET 1
// `#define` constants (and a skipped `#include`): the macros are used in the code only
// (array extent, factor, index arithmetic); the annotations spell the values out.
// A 4-thread rotate-and-scale through a __shared__ tile with a top-level barrier.
/*@ requires blockDim.x == 4;
    ensures \forall int j; 0 <= j < 4 ==> out[j] == 3 * in[(j + 1) % 4] + 1;
*/
__global__ void define_constants(int *in, int *out) {
    __shared__ int tile[TILE];
    tile[threadIdx.x] = in[threadIdx.x] * SCALE;
    __syncthreads();
    out[threadIdx.x] = tile[(threadIdx.x + 1) % TILE] + OFFSET;
}
