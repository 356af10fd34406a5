// expect: failed data-race:14 data-race:16
// Every thread's loop guard reads the shared cell a[0], which thread 0 increments in the (Thread 0 writes a[0] while the others read it in their guards, no barrier between: race checking reports the data race, the point of §4.1; the postconditions are proved.)
// body: the guard is not stable (Lemma 4.4 does not apply), so the checker applies the
// monotonic-loop transform of §4.1 (`verify --show-core` shows z := e; while z ...).
// After the loop only the invariant is known.
/*@ requires blockDim.x == 2;
    ensures a[0] >= \old(a[0]);
    ensures \forall int j; j >= 1 ==> a[j] == \old(a[j]);
*/
__global__ void shared_guard_transformed(int *a) {
    /*@ loop invariant a[0] >= \old(a[0]);
        loop invariant \forall int j; j >= 1 ==> a[j] == \old(a[j]);
    */
    while (a[0] < 10) {
        if (threadIdx.x == 0) {
            a[0] = a[0] + 1;
        }
    }
}
