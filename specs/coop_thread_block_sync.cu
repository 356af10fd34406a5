// expect: verified
// Cooperative groups: `this_thread_block().sync()` is __syncthreads(): a block reverses its
// 8 inputs through shared memory; thread_rank() and size() of the block are threadIdx.x and
// blockDim.x for a one-dimensional block.
#include <cooperative_groups.h>
using namespace cooperative_groups;
/*@ requires blockDim.x == 8 && blockDim.y == 1 && blockDim.z == 1;
    ensures \forall int t; 0 <= t < 8 ==> out[t] == \old(in[7 - t]);
*/
__global__ void coop_thread_block_sync(const int *in, int *out) {
    __shared__ int s[8];
    thread_block b = this_thread_block();
    unsigned r = b.thread_rank();
    s[r] = in[r];
    b.sync();
    out[r] = s[b.size() - 1 - r];
}
