// expect: failed data-race:18
// allow-unknown: cvc5 data-race:18 -- cvc5 finds no model of the race in 20 s (a run shows it); z3 refutes it
// grid_tiled_loop.cu with the store after the loop putting a row's four threads on one
// cell of `C` with different values: the race logs inferred empty through the loop
// (`flag == 0`) do not hide it.
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
    C[row * 8 + blockIdx.x * 4] = acc + threadIdx.x;
}
