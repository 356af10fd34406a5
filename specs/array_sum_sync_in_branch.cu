// expect: failed barrier-divergence:21
// Planted bug: the tree reduction of array_sum_n2.cu with the barrier moved inside
// `if (threadIdx.x < s)`. In the round with s == 1 only thread 0 reaches it: divergence.
// The invariant and the postcondition still hold (a barrier does not change the state).
/*@ requires gridDim.x == 1; requires blockDim.x == 2;
    requires n == 2 * blockDim.x;
    ensures a[0] == \old(a[0]) + \old(a[1]) + \old(a[2]) + \old(a[3]);
*/
__global__ void array_sum_sync_in_branch(int *a, int n) {
    int s = n / 2;
    /*@ loop invariant s == s @ 0;
        loop invariant (s @ 0 == 2 && a[0] == \old(a[0]) && a[1] == \old(a[1])
                                   && a[2] == \old(a[2]) && a[3] == \old(a[3]))
                    || (s @ 0 == 1 && a[0] == \old(a[0]) + \old(a[2])
                                   && a[1] == \old(a[1]) + \old(a[3]))
                    || (s @ 0 == 0 && a[0] == \old(a[0]) + \old(a[1]) + \old(a[2]) + \old(a[3]));
    */
    while (s > 0) {
        if (threadIdx.x < s) {
            a[threadIdx.x] = a[threadIdx.x] + a[threadIdx.x + s];
            __syncthreads();
        }
        s = s / 2;
    }
}
