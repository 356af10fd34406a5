// expect: verified
// allow-unknown: cvc5 postcondition:9 loop-invariant-preserved:23 -- cvc5 decides neither in 60 s (z3: 8 s, 7 s)
// Tiled C = A * B of 32 x 32 int matrices with CUDA's 16 x 16 tiles on a 2 x 2 grid of 16 x 16 blocks (1,024
// threads): the two tile steps unrolled, the tiles' product summed by a loop with acc's partial sum as invariant.
#define N 32
#define TILE 16
/*@ requires blockDim.x == 16 && blockDim.y == 16;
    requires gridDim.x == 2 && gridDim.y == 2;
    ensures \forall int r, c; 0 <= r < 32 && 0 <= c < 32 ==>
                C[r * 32 + c] == \sum(0, 31, \lambda int k; A[r * 32 + k] * B[k * 32 + c]);
*/
__global__ void matmul_tiled16(const int *A, const int *B, int *C) {
    __shared__ int As[TILE][TILE];
    __shared__ int Bs[TILE][TILE];
    int row = blockIdx.y * TILE + threadIdx.y;
    int col = blockIdx.x * TILE + threadIdx.x;
    int acc = 0;
    for (int m = 0; m < N / TILE; m++) {
        As[threadIdx.y][threadIdx.x] = A[row * N + m * TILE + threadIdx.x];
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
