// expect: failed postcondition:8 data-race:13 data-race:14 data-race:15
// Paper §4.1: the non-monotonic loop. Thread 0 enters, writes x[0] = x[1] = 1, and so makes (The guard reads x[tid] while the other thread writes it, no barrier between: race checking reports these data races, the point of §4.1.)
// thread 1's guard true after thread 1 has already left. After the monotonic-loop transform
// only the invariant is known on exit, and the second postcondition is really false
// (from x = {0, 0} the run ends with x = {1, 1}, so x[1] == 1): it must be refuted.
/*@ requires blockDim.x == 2;
    requires x[0] == 0 && x[1] == 0;
    ensures x[threadIdx.x] != threadIdx.x;
    ensures \exists int i; 0 <= i < blockDim.x && x[i] == i;
*/
__global__ void nonmonotonic_loop(int *x) {
    /*@ loop invariant \exists int i; 0 <= i < blockDim.x && x[i] == i; */
    while (x[threadIdx.x] == threadIdx.x) {
        x[0] = 1;
        x[1] = 1;
    }
}
