// expect: verified
// What Clang brings: function-like macros, `#if`/`#ifdef`, a backslash-newline that splices
// a `//` comment with the next line (C drops that line), typedefs and the C integer types
// (read as mathematical integers; unsigned values are >= 0).
#include <cuda_runtime.h>
#define SCALE 3
#define TWICE(x) ((x) + (x))
typedef unsigned int index_t;
/*@ requires blockDim.x == 4;
    ensures \forall int j; 0 <= j < 4 ==> out[j] == 6 * in[j] + 1;
*/
__global__ void macros_and_types(const int *in, int *out) {
    index_t i = threadIdx.x;
    short scale = SCALE;
    long long v = TWICE(in[i]) * scale;
#ifdef HOAREGPU_NEVER_DEFINED
    v = 0;
#endif
    // the next line belongs to this comment \
    v = v + 100;
    out[i] = v + 1;
}
