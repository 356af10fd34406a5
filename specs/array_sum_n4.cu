// expect: verified
// Paper §3.3.2 tree reduction (array sum) with 4 threads over an array of length 2N = 8.
// One disjunct of the invariant per value of s (4, 2, 1, 0) with the partial sums spelled out.
/*@ requires gridDim.x == 1; requires blockDim.x == 4;
    requires n == 2 * blockDim.x;
    ensures a[0] == \old(a[0]) + \old(a[1]) + \old(a[2]) + \old(a[3])
                  + \old(a[4]) + \old(a[5]) + \old(a[6]) + \old(a[7]);
*/
__global__ void array_sum_n4(int *a, int n) {
    int s = n / 2;
    /*@ loop invariant s == s @ 0;
        loop invariant (s @ 0 == 4 && a[0] == \old(a[0]) && a[1] == \old(a[1])
                                   && a[2] == \old(a[2]) && a[3] == \old(a[3])
                                   && a[4] == \old(a[4]) && a[5] == \old(a[5])
                                   && a[6] == \old(a[6]) && a[7] == \old(a[7]))
                    || (s @ 0 == 2 && a[0] == \old(a[0]) + \old(a[4])
                                   && a[1] == \old(a[1]) + \old(a[5])
                                   && a[2] == \old(a[2]) + \old(a[6])
                                   && a[3] == \old(a[3]) + \old(a[7]))
                    || (s @ 0 == 1 && a[0] == \old(a[0]) + \old(a[2]) + \old(a[4]) + \old(a[6])
                                   && a[1] == \old(a[1]) + \old(a[3]) + \old(a[5]) + \old(a[7]))
                    || (s @ 0 == 0 && a[0] == \old(a[0]) + \old(a[1]) + \old(a[2]) + \old(a[3])
                                            + \old(a[4]) + \old(a[5]) + \old(a[6]) + \old(a[7]));
    */
    while (s > 0) {
        if (threadIdx.x < s) {
            a[threadIdx.x] = a[threadIdx.x] + a[threadIdx.x + s];
        }
        s = s / 2;
        __syncthreads();
    }
}
