// expect: failed data-race:16
// Planted bug in the shared-tile transpose: the __syncthreads() between staging the tile and reading it transposed is missing, so a thread reads tile[threadIdx.x][threadIdx.y], which another thread of its block writes, with no barrier between: a data race.
/*@ requires blockDim.x == 2 && blockDim.y == 2 && blockDim.z == 1;
    requires gridDim.x == 2 && gridDim.y == 2 && gridDim.z == 1;
    ensures \forall int r, c; 0 <= r < 4 && 0 <= c < 4 ==> out[c * 4 + r] == \old(in[r * 4 + c]);
*/
#define TILE 2
#define N 4
__global__ void bug_transpose_shared(const int *in, int *out) {
    __shared__ int tile[TILE][TILE];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[y * N + x];
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    out[y * N + x] = tile[threadIdx.x][threadIdx.y];
}
// allow-unknown: cvc5 postcondition:5 data-race:16 -- as transpose_shared.cu (postcondition; z3 proves it: lockstep within a block), and cvc5 finds no model of the race in 30 s (z3 refutes it, confirmed by execution)
