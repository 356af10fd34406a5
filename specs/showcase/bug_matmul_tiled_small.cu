// expect: failed postcondition:10
// allow-unknown: cvc5 postcondition:10 data-race:28 -- cvc5 finds no model for the 16-thread postcondition in 60 s, nor decides the race check of the store to C
// Planted bug: the 4 x 4 tiled multiplication (2 x 2 grid of 2 x 2 blocks) loads the A
// tile of step m from column m instead of m * TILE, so C[r][c] misses A[r][2] * B[2][c]
// and counts A[r][1] * B[2][c] in its place.
#define N 4
#define TILE 2
/*@ requires blockDim.x == 2 && blockDim.y == 2;
    requires gridDim.x == 2 && gridDim.y == 2;
    ensures \forall int r, c; 0 <= r < 4 && 0 <= c < 4 ==>
                C[r * 4 + c] == \sum(0, 3, \lambda int k; A[r * 4 + k] * B[k * 4 + c]);
*/
__global__ void bug_matmul_tiled_small(const int *A, const int *B, int *C) {
    __shared__ int As[TILE][TILE];
    __shared__ int Bs[TILE][TILE];
    int row = blockIdx.y * TILE + threadIdx.y;
    int col = blockIdx.x * TILE + threadIdx.x;
    int acc = 0;
    for (int m = 0; m < N / TILE; m++) {
        As[threadIdx.y][threadIdx.x] = A[row * N + m + threadIdx.x];
        Bs[threadIdx.y][threadIdx.x] = B[(m * TILE + threadIdx.y) * N + col];
        __syncthreads();
        for (int k = 0; k < TILE; k++) {
            acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        }
        __syncthreads();
    }
    C[(blockIdx.y * TILE + threadIdx.y) * N + blockIdx.x * TILE + threadIdx.x] = acc;
}
