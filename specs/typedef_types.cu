// expect: verified
// Types through typedef and using: an integer typedef, a typedef'd struct, a using alias
// of it, and CUDA's integer vector type uint4 (a struct of x, y, z, w).
typedef int score_t;
typedef struct { score_t lo; score_t hi; } range_t;
using Range = range_t;
/*@ requires blockDim.x == 2;
    ensures \forall int j; 0 <= j < 2 ==> out[j].x == (\old(rs[j].hi) > \old(rs[j].lo) ? \old(rs[j].hi) - \old(rs[j].lo) : 0);
    ensures \forall int j; 0 <= j < 2 ==> out[j].y == 0 && out[j].z == 0 && out[j].w == 0;
*/
__global__ void typedef_types(Range *rs, uint4 *out) {
    Range r = rs[threadIdx.x];
    score_t width = r.hi - r.lo;
    uint4 v = {0, 0, 0, 0};
    if (width > 0) {
        v.x = width;
    }
    out[threadIdx.x] = v;
}
