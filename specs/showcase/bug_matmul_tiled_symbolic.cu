// expect: failed assertion:34
// allow-unknown: cvc5 postcondition:12 -- as in matmul_tiled_symbolic.cu: cvc5 does not decide it in 60 s
// Planted bug: matmul_tiled_symbolic.cu with the B tile loaded transposed, B[(m * 16 + threadIdx.x) * 32 + col]
// for B[(m * 16 + threadIdx.y) * 32 + col]: Bs[k][tx] holds the cell of row m * 16 + tx, not m * 16 + k, and
// the assertion on it fails. z3 leaves the VC undecided (a model needs the sums' prefix functions for an
// open K); `verify` then runs the kernel on random inputs with that clause checked, and a run violates it in
// its first tile.
#define TILE 16
/*@ requires blockDim.x == 16 && blockDim.y == 16;
    requires gridDim.x == 2;
    requires K >= 16 && K % 16 == 0;
    ensures \forall int r, c; 0 <= r < gridDim.y * 16 && 0 <= c < 32 ==>
                C[r * 32 + c] == \sum(0, K - 1, \lambda int k; A[r * K + k] * B[k * 32 + c]);
*/
__global__ void matmul_tiled_symbolic(const int *A, const int *B, int *C, int K) {
    __shared__ int As[TILE][TILE];
    __shared__ int Bs[TILE][TILE];
    int row = blockIdx.y * TILE + threadIdx.y;
    int col = blockIdx.x * TILE + threadIdx.x;
    int rowK = row * K;
    int acc = 0;
    /*@ loop invariant 0 <= m && m * 16 <= K;
        loop invariant acc == \sum(0, m * 16 - 1, \lambda int j; A[rowK + j] * B[j * 32 + col]);
    */
    for (int m = 0; m * TILE < K; m++) {
        As[threadIdx.y][threadIdx.x] = A[rowK + m * TILE + threadIdx.x];
        Bs[threadIdx.y][threadIdx.x] = B[(m * TILE + threadIdx.x) * 32 + col];
        __syncthreads();
        /*@ loop invariant 0 <= k && k <= 16;
            loop invariant acc == \sum(0, m * 16 + k - 1, \lambda int j; A[rowK + j] * B[j * 32 + col]);
        */
        for (int k = 0; k < TILE; k++) {
            //@ assert As[threadIdx.y][k] == A[rowK + m * 16 + k];
            //@ assert Bs[k][threadIdx.x] == B[(m * 16 + k) * 32 + col];
            acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        }
        __syncthreads();
    }
    C[(blockIdx.y * TILE + threadIdx.y) * 32 + blockIdx.x * TILE + threadIdx.x] = acc;
}
