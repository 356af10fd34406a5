// expect: verified
// A tiled loop on a grid of 2-D blocks whose row count is open: the tile count `K / 4` is a
// parameter, so the loop stays a loop, and its barriers need the counter `m` uniform. Both
// invariants it needs are inferred (README, "Inferred loop invariants"): `m == m @ (0, 0)`,
// the same in every thread of the grid, and "nothing recorded" for the race logs of `C`,
// which the loop never touches (its barriers lower their flags, so H-WHILE forgets them).
/*@ requires blockDim.x == 4 && blockDim.y == 4 && gridDim.x == 2;
*/
__global__ void grid_tiled_loop(const int *A, int *C, int K) {
    __shared__ int As[4][4];
    int row = blockIdx.y * 4 + threadIdx.y;
    int acc = 0;
    for (int m = 0; m < K / 4; m++) {
        As[threadIdx.y][threadIdx.x] = A[m * 4 + threadIdx.x];
        __syncthreads();
        acc += As[threadIdx.y][(threadIdx.x + 1) % 4];
        __syncthreads();
    }
    C[row * 8 + blockIdx.x * 4 + threadIdx.x] = acc;
}
