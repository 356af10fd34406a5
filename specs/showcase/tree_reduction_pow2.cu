// expect: verified
// Paper §3.3.2 tree reduction for any power-of-two thread count N over 2N cells: in round s (N, N/2, ..., 1) thread t < s adds a[t + s] into a[t]; the invariant says the first 2s cells still sum to the total, and the assert (proved) splits that sum into the pairs the round adds.
/*@ requires gridDim.x == 1;
    requires blockDim.x == 1 || blockDim.x == 2 || blockDim.x == 4 || blockDim.x == 8 || blockDim.x == 16 || blockDim.x == 32
             || blockDim.x == 64 || blockDim.x == 128 || blockDim.x == 256 || blockDim.x == 512 || blockDim.x == 1024;
    ensures a[0] == \sum(0, 2 * blockDim.x - 1, \lambda int k; \old(a[k]));
*/
__global__ void tree_reduction_pow2(int *a) {
    /*@ loop invariant s == s @ 0;
        loop invariant s @ 0 <= blockDim.x;
        loop invariant s @ 0 == 0 || s @ 0 == 1 || s @ 0 == 2 || s @ 0 == 4 || s @ 0 == 8 || s @ 0 == 16 || s @ 0 == 32
                       || s @ 0 == 64 || s @ 0 == 128 || s @ 0 == 256 || s @ 0 == 512 || s @ 0 == 1024;
        loop invariant s @ 0 >= 1 ==> \sum(0, 2 * s @ 0 - 1, \lambda int k; a[k])
                                      == \sum(0, 2 * blockDim.x - 1, \lambda int k; \old(a[k]));
        loop invariant s @ 0 == 0 ==> a[0] == \sum(0, 2 * blockDim.x - 1, \lambda int k; \old(a[k]));
    */
    for (int s = blockDim.x; s > 0; s /= 2) {
        //@ assert s @ 0 == 1 || s @ 0 % 2 == 0;
        //@ assert \sum(0, 2 * s @ 0 - 1, \lambda int k; a[k]) == \sum(0, s @ 0 - 1, \lambda int k; a[k] + a[k + s @ 0]);
        if (threadIdx.x < s) {
            a[threadIdx.x] = a[threadIdx.x] + a[threadIdx.x + s];
        }
        __syncthreads();
    }
}
