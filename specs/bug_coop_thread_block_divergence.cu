// expect: failed barrier-divergence:15 data-race:16
// Planted bug: coop_thread_block_sync.cu with its block barrier (`synchronize(b)`, GPUVerify's (Threads the barrier leaves out read s[] cells others write: a data race too.)
// spelling) reached only by the first half of the block: barrier divergence.
#include <cooperative_groups.h>
using namespace cooperative_groups;
/*@ requires blockDim.x == 8 && blockDim.y == 1 && blockDim.z == 1;
    ensures \forall int t; 0 <= t < 8 ==> out[t] == \old(in[7 - t]);
*/
__global__ void bug_coop_thread_block_divergence(const int *in, int *out) {
    __shared__ int s[8];
    thread_block b = this_thread_block();
    unsigned r = b.thread_rank();
    s[r] = in[r];
    if (r < 4)
        synchronize(b);
    out[r] = s[b.size() - 1 - r];
}
