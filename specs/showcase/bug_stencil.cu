// expect: failed postcondition:4
// Planted bug in the 3-point stencil: the right halo cell s[B + 1] is never loaded (the guard tests threadIdx.x == B, which no thread of a 4-thread block has), so each block's last cell adds an unset shared cell instead of its right neighbour. Execution finds it at once; the solvers find no model in time (see the allow-unknown line).
/*@ requires blockDim.x == 4 && gridDim.x == 3;
    ensures \forall int i; 1 <= i < 11 ==> out[i] == \old(in[i - 1]) + \old(in[i]) + \old(in[i + 1]);
*/
#define B 4
#define N 12
__global__ void bug_stencil(const int *in, int *out) {
    __shared__ int s[B + 2];
    int i = blockIdx.x * B + threadIdx.x;
    s[threadIdx.x + 1] = in[i];
    if (threadIdx.x == 0 && i > 0) {
        s[0] = in[i - 1];
    }
    if (threadIdx.x == B && i < N - 1) {
        s[B + 1] = in[i + 1];
    }
    __syncthreads();
    if (i > 0 && i < N - 1) {
        out[i] = s[threadIdx.x] + s[threadIdx.x + 1] + s[threadIdx.x + 2];
    }
}
// allow-unknown: z3,cvc5 postcondition:4 data-race:20 -- the halo stores s[0] and s[B + 1] (one writer each) keep Skolem writers; neither solver finds a model in 60-90 s, though execution finds the violation at once (noted, not counted). cvc5: data-race:20 as in stencil.cu
