// expect: verified
// A loop whose guard reads a shared array written in the body, so the checker applies the
// monotonic-loop transform (§4.1). After the loop only the invariant is known, so the
// postconditions say only what the invariant carries.
/*@ ensures a[threadIdx.x] >= \old(a[threadIdx.x]);
    ensures \forall int j; j >= blockDim.x ==> a[j] == \old(a[j]);
*/
__global__ void shared_guard_loop(int *a) {
    /*@ loop invariant a[threadIdx.x] >= \old(a[threadIdx.x]);
        loop invariant \forall int j; j >= blockDim.x ==> a[j] == \old(a[j]);
    */
    while (a[threadIdx.x] < 10) {
        a[threadIdx.x] = a[threadIdx.x] + 1;
    }
}
