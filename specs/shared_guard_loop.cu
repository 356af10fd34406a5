// expect: verified
// A loop whose guard reads a shared array written in the body, but each thread reads and
// writes only its own cell a[tid]: Lemma 4.4 extended to thread-private cells shows the
// loop monotonic, so no transform is needed and the exit condition (none of the threads
// still has a[tid] < 10) proves the last postcondition.
/*@ requires gridDim.x == 1; ensures a[threadIdx.x] >= \old(a[threadIdx.x]);
    ensures \forall int j; j >= blockDim.x ==> a[j] == \old(a[j]);
    ensures a[threadIdx.x] >= 10;
*/
__global__ void shared_guard_loop(int *a) {
    /*@ loop invariant a[threadIdx.x] >= \old(a[threadIdx.x]);
        loop invariant \forall int j; j >= blockDim.x ==> a[j] == \old(a[j]);
    */
    while (a[threadIdx.x] < 10) {
        a[threadIdx.x] = a[threadIdx.x] + 1;
    }
}
