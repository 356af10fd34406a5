// expect: verified
// `\old` in postconditions: reverse the first blockDim.x cells of a in place. Each thread
// reads its mirror cell into a local, a top-level barrier separates the reads from the
// writes (race-free), then each thread writes its own cell. Any thread count.
/*@ requires gridDim.x == 1; ensures \forall int j; 0 <= j < blockDim.x ==> a[j] == \old(a[blockDim.x - 1 - j]);
    ensures \forall int j; j >= blockDim.x ==> a[j] == \old(a[j]);
*/
__global__ void old_reverse(int *a) {
    int v = a[blockDim.x - 1 - threadIdx.x];
    __syncthreads();
    a[threadIdx.x] = v;
}
