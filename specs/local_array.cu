// expect: verified
// A per-thread local array filled by a `for` loop; the invariant quantifies over the
// local array's indices (each thread has its own copy of buf).
/*@ ensures out[threadIdx.x] == 4 * threadIdx.x + 6;
*/
__global__ void local_array(int *out) {
    int buf[4];
    int i;
    /*@ loop invariant 0 <= i && i <= 4;
        loop invariant \forall int j; 0 <= j < i ==> buf[j] == threadIdx.x + j;
    */
    for (i = 0; i < 4; i++) {
        buf[i] = threadIdx.x + i;
    }
    out[threadIdx.x] = buf[0] + buf[1] + buf[2] + buf[3];
}
