// expect: failed assertion:11 assertion:12
// Planted bugs: `in[threadIdx.x] >= 0` fails (in[] is unconstrained) and `y < blockDim.x`
// fails for threads in the upper half (2 threads: 2 < 2). They are independent: each is
// refuted even if the tool assumes the earlier assertions afterwards.
// `y >= threadIdx.x` and the postcondition hold.
/*@ requires gridDim.x == 1; ensures out[threadIdx.x] == 2 * threadIdx.x;
*/
__global__ void bug_assert_fails(int *in, int *out) {
    int y = 2 * threadIdx.x;
    //@ assert y >= threadIdx.x;
    //@ assert in[threadIdx.x] >= 0;
    //@ assert y < blockDim.x;
    out[threadIdx.x] = y;
}
