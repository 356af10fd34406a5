// expect: verified
// An in-place tree reduction on 8 threads with no loop invariant: `for (s = 4; s > 0; s /= 2)`
// runs 3 times whatever the thread, so it is unrolled; its barriers stay (all threads reach
// each copy) and the postcondition is the sum of the 8 inputs.
/*@ requires gridDim.x == 1; requires blockDim.x == 8;
    ensures a[0] == \old(a[0]) + \old(a[1]) + \old(a[2]) + \old(a[3])
                  + \old(a[4]) + \old(a[5]) + \old(a[6]) + \old(a[7]);
*/
__global__ void unroll_tree_reduction8(int *a) {
    for (int s = 4; s > 0; s /= 2) {
        if (threadIdx.x < s) {
            a[threadIdx.x] += a[threadIdx.x + s];
        }
        __syncthreads();
    }
}
// allow-unknown: cvc5 data-race:12 -- the race VC of the last tree step (race checking); z3 proves it in 0.6 s, cvc5 needs ~10 s alone and times out at 20 s under load
