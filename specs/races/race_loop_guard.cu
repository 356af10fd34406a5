// expect: failed data-race:8 data-race:10
// A loop guard read races with the body's write: thread 1 reads a[0] in the guard (line 8) while thread 0 increments it (line 10).
/*@ requires blockDim.x == 2;
*/
__global__ void loop_guard(int *a) {
    /*@ loop invariant 1;
    */
    while (a[0] < 10) {
        if (threadIdx.x == 0) {
            a[0] = a[0] + 1;
        }
    }
}
