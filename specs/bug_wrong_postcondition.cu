// expect: failed postcondition:8
// Planted bug: the 2-thread tree reduction of array_sum_n2.cu with an extra, wrong
// postcondition: a[1] is overwritten in the first round (a[1] == old a[1] + old a[3]),
// so `a[1] == \old(a[1])` is refuted. The sum in a[0] is proved as before.
/*@ requires gridDim.x == 1; requires blockDim.x == 2;
    requires n == 2 * blockDim.x;
    ensures a[0] == \old(a[0]) + \old(a[1]) + \old(a[2]) + \old(a[3]);
    ensures a[1] == \old(a[1]);
*/
__global__ void bug_wrong_postcondition(int *a, int n) {
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
