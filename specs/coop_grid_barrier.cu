// expect: verified
// Cooperative groups: a grid barrier (`g.sync()`) between two phases, where each thread then
// reads a cell another block wrote (thread i reads cell i + 4 of the other block), and a
// block barrier (`cg::sync(b)`, __syncthreads()) inside `if (blockIdx.x == 0)`, uniform per block.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
/*@ requires blockDim.x == 4 && gridDim.x == 2 && gridDim.y == 1 && gridDim.z == 1;
    ensures \forall int t; 0 <= t < 8 ==> out[t] == 2 * \old(in[(t + 4) % 8]);
*/
__global__ void coop_grid_barrier(const int *in, int *mid, int *out) {
    cg::grid_group g = cg::this_grid();
    cg::thread_block b = cg::this_thread_block();
    int i = blockIdx.x * 4 + threadIdx.x;
    mid[i] = 2 * in[i];
    g.sync();
    out[i] = mid[(i + 4) % 8];
    if (blockIdx.x == 0) {
        cg::sync(b);
    }
}
