// expect: failed data-race:19
// Planted bug in the 3-point stencil: the __syncthreads() between staging the tile (with its halos) and reading the neighbours is missing, so a thread reads s[threadIdx.x], which its left neighbour writes, with no barrier between: a data race.
/*@ requires blockDim.x == 4 && gridDim.x == 3;
    ensures \forall int i; 1 <= i < 11 ==> out[i] == \old(in[i - 1]) + \old(in[i]) + \old(in[i + 1]);
*/
#define B 4
#define N 12
__global__ void bug_stencil_race(const int *in, int *out) {
    __shared__ int s[B + 2];
    int i = blockIdx.x * B + threadIdx.x;
    s[threadIdx.x + 1] = in[i];
    if (threadIdx.x == 0 && i > 0) {
        s[0] = in[i - 1];
    }
    if (threadIdx.x == B - 1 && i < N - 1) {
        s[B + 1] = in[i + 1];
    }
    if (i > 0 && i < N - 1) {
        out[i] = s[threadIdx.x] + s[threadIdx.x + 1] + s[threadIdx.x + 2];
    }
}
// allow-unknown: cvc5 postcondition:4 data-race:19 -- cvc5 finds no model of the race in 30 s and does not finish the halo bookkeeping (z3 refutes the race, confirmed by execution, and proves the rest)
