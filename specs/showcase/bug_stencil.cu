// expect: failed postcondition:4
// Planted bug in the 3-point stencil: the right halo cell s[B + 1] is never loaded (the guard tests threadIdx.x == B, which no thread of a 4-thread block has), so each block's last cell adds an unset shared cell instead of its right neighbour. z3 refutes the postcondition and execution confirms it: the guard pins the halo store's writer to thread B, which does not exist (smt/writers.py).
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
// allow-unknown: cvc5 postcondition:4 data-race:20 -- cvc5 finds no model of the missing halo in 60 s (z3: 8 s, confirmed by execution); data-race:20 as in stencil.cu
