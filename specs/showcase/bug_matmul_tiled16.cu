// expect: failed index-bounds:19
// allow-unknown: cvc5 index-bounds:19 -- cvc5 finds no model in 60 s
// allow-unknown: z3 loop-invariant-preserved:23 -- 2026-11-30: the second tile step's preservation timed out at 120 s through z3's API (5.4.0, both configurations), on the code of 2026-11-29 too; z3's binary (4.8.12) with its macro finder proves the same script in 1 s
// Planted bug: the 16 x 16 tiled multiplication stores its A element one column too far into the tile, As[ty][tx + 1]: column 15 leaves the tile's row (C would write As[ty + 1][0]), column 0 is never loaded.
#define N 32
#define TILE 16
/*@ requires blockDim.x == 16 && blockDim.y == 16;
    requires gridDim.x == 2 && gridDim.y == 2;
    ensures \forall int r, c; 0 <= r < 32 && 0 <= c < 32 ==>
                C[r * 32 + c] == \sum(0, 31, \lambda int k; A[r * 32 + k] * B[k * 32 + c]);
*/
__global__ void bug_matmul_tiled16(const int *A, const int *B, int *C) {
    __shared__ int As[TILE][TILE];
    __shared__ int Bs[TILE][TILE];
    int row = blockIdx.y * TILE + threadIdx.y;
    int col = blockIdx.x * TILE + threadIdx.x;
    int acc = 0;
    for (int m = 0; m < N / TILE; m++) {
        As[threadIdx.y][threadIdx.x + 1] = A[row * N + m * TILE + threadIdx.x];
        Bs[threadIdx.y][threadIdx.x] = B[(m * TILE + threadIdx.y) * N + col];
        __syncthreads();
        /*@ loop invariant 0 <= k && k <= 16;
            loop invariant acc == \sum(0, m * 16 + k - 1, \lambda int j; A[row * 32 + j] * B[j * 32 + col]);
        */
        for (int k = 0; k < TILE; k++) {
            acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        }
        __syncthreads();
    }
    C[(blockIdx.y * TILE + threadIdx.y) * N + blockIdx.x * TILE + threadIdx.x] = acc;
}
