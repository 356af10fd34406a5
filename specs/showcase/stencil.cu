// expect: verified
// 1-D 3-point stencil through shared memory: 3 blocks of 4 threads over 12 cells. Each block stages its 4 cells plus one halo cell on each side (loaded by its first and last thread), waits, and sums each cell with its neighbours.
/*@ requires blockDim.x == 4 && gridDim.x == 3;
    ensures \forall int i; 1 <= i < 11 ==> out[i] == \old(in[i - 1]) + \old(in[i]) + \old(in[i + 1]);
*/
#define B 4
#define N 12
__global__ void stencil(const int *in, int *out) {
    __shared__ int s[B + 2];
    int i = blockIdx.x * B + threadIdx.x;
    s[threadIdx.x + 1] = in[i];
    if (threadIdx.x == 0 && i > 0) {
        s[0] = in[i - 1];
    }
    if (threadIdx.x == B - 1 && i < N - 1) {
        s[B + 1] = in[i + 1];
    }
    __syncthreads();
    if (i > 0 && i < N - 1) {
        out[i] = s[threadIdx.x] + s[threadIdx.x + 1] + s[threadIdx.x + 2];
    }
}
// allow-unknown: cvc5 postcondition:4 data-race:20 -- cvc5 does not finish the halo bookkeeping of 3 blocks in 30 s (z3: under 1 s each)
