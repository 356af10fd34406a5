// expect: failed barrier-divergence:13
// grid_tiled_loop.cu with a tile count that differs between the rows of a block: its
// barriers are reached by some threads of a block and not by others.
// allow-unknown: z3,cvc5 barrier-divergence:15 -- after the first barrier diverges the second is undecided (a run that stops at the first cannot reach it)
/*@ requires blockDim.x == 4 && blockDim.y == 4 && gridDim.x == 2;
*/
__global__ void grid_tiled_loop(const int *A, int *C, int K) {
    __shared__ int As[4][4];
    int row = blockIdx.y * 4 + threadIdx.y;
    int acc = 0;
    for (int m = 0; m < K / 4 + row % 2; m++) {
        As[threadIdx.y][threadIdx.x] = A[m * 4 + threadIdx.x];
        __syncthreads();
        acc += As[threadIdx.y][(threadIdx.x + 1) % 4];
        __syncthreads();
    }
    C[row * 8 + blockIdx.x * 4 + threadIdx.x] = acc;
}
