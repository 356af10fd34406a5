// expect: verified
// Reads never race with reads: every thread reads in[0] and writes its own out[t].
/*@ requires blockDim.x == 4;
    ensures \forall int j; 0 <= j < 4 ==> out[j] == \old(in[0]) + j;
*/
__global__ void read_only_sharing(int *in, int *out) {
    out[threadIdx.x] = in[0] + threadIdx.x;
}
