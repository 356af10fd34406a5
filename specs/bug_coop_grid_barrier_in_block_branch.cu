// expect: failed barrier-divergence:17 data-race:19
// Planted bug: the grid barrier of coop_grid_barrier.cu moved under `if (blockIdx.x == 0)`: (Block 1 reads mid[] cells block 0 writes, unordered: a data race too.)
// all threads of block 0 reach it and none of block 1. A block barrier there is fine, a grid
// barrier is barrier divergence (the strict rule over the whole grid).
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
/*@ requires blockDim.x == 4 && gridDim.x == 2 && gridDim.y == 1 && gridDim.z == 1;
    ensures \forall int t; 0 <= t < 8 ==> out[t] == 2 * \old(in[(t + 4) % 8]);
*/
__global__ void bug_coop_grid_barrier_in_block_branch(const int *in, int *mid, int *out) {
    cg::grid_group g = cg::this_grid();
    cg::thread_block b = cg::this_thread_block();
    int i = blockIdx.x * 4 + threadIdx.x;
    mid[i] = 2 * in[i];
    if (blockIdx.x == 0) {
        cg::sync(b);
        g.sync();
    }
    out[i] = mid[(i + 4) % 8];
}
