// expect: verified
// Kogge–Stone inclusive scan in place on 1,024 threads: a[j] ends as the sum of the inputs 0..j.
/*@ requires gridDim.x == 1; requires blockDim.x == 1024;
    ensures \forall int j; 0 <= j < blockDim.x ==> a[j] == \sum(0, j, \lambda int k; \old(a[k]));
*/
__global__ void sum_kogge_stone1024(int *a) {
    /*@ loop invariant 1 <= d && d == d @ 0;
        loop invariant \forall int j; 0 <= j < blockDim.x ==>
                         a[j] == \sum(\max(0, j - d @ 0 + 1), j, \lambda int k; \old(a[k]));
    */
    for (int d = 1; d < blockDim.x; d *= 2) {
        int v = 0;
        if (threadIdx.x >= d) v = a[threadIdx.x - d];
        __syncthreads();
        a[threadIdx.x] += v;
        __syncthreads();
    }
}
