// expect: verified
// allow-unknown: cvc5 postcondition:7 -- 16 threads must cover 16 cells; cvc5 proves it in about 3 s alone, but not reliably within 10 s on a loaded machine
// Two-dimensional blocks and grid: a 4 x 4 matrix transposed by 2 x 2 blocks of 2 x 2
// threads, each thread one element (threadIdx.y / blockIdx.y name the row).
/*@ requires blockDim.x == 2 && blockDim.y == 2;
    requires gridDim.x == 2 && gridDim.y == 2;
    ensures \forall int r, c; 0 <= r < 4 && 0 <= c < 4 ==> out[c * 4 + r] == in[r * 4 + c];
*/
__global__ void grid_transpose_2d(const int *in, int *out) {
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    out[c * 4 + r] = in[r * 4 + c];
}
