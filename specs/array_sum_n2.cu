// expect: verified
// Paper §3.3.2 tree reduction (array sum) with 2 threads over an array of length 2N = 4.
// The invariant spells out the partial sums for each value of s (2, 1, 0); `s == s @ 0`
// says s is uniform, which the barrier at the end of the body needs.
/*@ requires gridDim.x == 1; requires blockDim.x == 2;
    requires n == 2 * blockDim.x;
    ensures a[0] == \old(a[0]) + \old(a[1]) + \old(a[2]) + \old(a[3]);
*/
__global__ void array_sum_n2(int *a, int n) {
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
        }
        s = s / 2;
        __syncthreads();
    }
}
