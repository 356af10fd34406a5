// expect: verified
// Nested if/else under lockstep masks, for any thread count: both branches of each `if`
// run in sequence, each under its own mask. A shared write in an inner branch must leave
// the cells of threads outside that branch unchanged.
/*@ requires gridDim.x == 1; ensures threadIdx.x % 2 == 0 && threadIdx.x < 4 ==> out[threadIdx.x] == 1;
    ensures threadIdx.x % 2 == 0 && threadIdx.x >= 4 ==> out[threadIdx.x] == 2;
    ensures threadIdx.x % 2 == 1 ==> out[threadIdx.x] == threadIdx.x + 3;
    ensures threadIdx.x % 2 == 0 && threadIdx.x < 4 ==> mark[threadIdx.x] == 7;
    ensures threadIdx.x % 2 == 1 || threadIdx.x >= 4 ==> mark[threadIdx.x] == \old(mark[threadIdx.x]);
*/
__global__ void nested_branches(int *out, int *mark) {
    int v = 0;
    if (threadIdx.x % 2 == 0) {
        if (threadIdx.x < 4) {
            v = 1;
            mark[threadIdx.x] = 7;
        } else {
            v = 2;
        }
    } else {
        v = 3;
        if (threadIdx.x > 0) {
            v = v + threadIdx.x;
        }
    }
    out[threadIdx.x] = v;
}
