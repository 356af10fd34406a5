// expect: verified
// Not in specs/showcase/ yet: its planted-bug twins are undecided (docs/aggregates.md, "Symbolic matrix sizes").
// Tiled C = A * B with 16 x 16 tiles, 2 blocks across and any number of block rows (gridDim.y), the inner
// dimension K any multiple of 16: 50 of 50 VCs with z3 (60 s per VC, 2 jobs: 70 s), 2026-12-02.
/*@ requires blockDim.x == 16 && blockDim.y == 16;
    requires gridDim.x == 2;
    requires K >= 16 && K % 16 == 0;
    ensures \forall int r, c; 0 <= r < gridDim.y * 16 && 0 <= c < 32 ==>
                C[r * 32 + c] == \sum(0, K - 1, \lambda int k; A[r * K + k] * B[k * 32 + c]);
*/
__global__ void matmul_tiled_symbolic(const int *A, const int *B, int *C, int K) {
    __shared__ int As[16][16];
    __shared__ int Bs[16][16];
    int row = blockIdx.y * 16 + threadIdx.y;
    int col = blockIdx.x * 16 + threadIdx.x;
    int rowK = row * K;
    int acc = 0;
    /*@ loop invariant 0 <= m && m * 16 <= K;
        loop invariant acc == \sum(0, m * 16 - 1, \lambda int j; A[rowK + j] * B[j * 32 + col]);
    */
    for (int m = 0; m * 16 < K; m++) {
        As[threadIdx.y][threadIdx.x] = A[rowK + m * 16 + threadIdx.x];
        Bs[threadIdx.y][threadIdx.x] = B[(m * 16 + threadIdx.y) * 32 + col];
        __syncthreads();
        /*@ loop invariant 0 <= k && k <= 16;
            loop invariant acc == \sum(0, m * 16 + k - 1, \lambda int j; A[rowK + j] * B[j * 32 + col]);
        */
        for (int k = 0; k < 16; k++) {
            //@ assert As[threadIdx.y][k] == A[rowK + m * 16 + k];
            //@ assert Bs[k][threadIdx.x] == B[(m * 16 + k) * 32 + col];
            acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        }
        __syncthreads();
    }
    C[(blockIdx.y * 16 + threadIdx.y) * 32 + blockIdx.x * 16 + threadIdx.x] = acc;
}
