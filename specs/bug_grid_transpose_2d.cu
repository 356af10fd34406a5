// expect: failed postcondition:6
// Planted bug: the row index uses blockIdx.x instead of blockIdx.y, so blocks (0,1) and
// (1,1) redo the rows of blocks (0,0) and (1,0) and rows 2 and 3 are never transposed.
/*@ requires blockDim.x == 2 && blockDim.y == 2;
    requires gridDim.x == 2 && gridDim.y == 2;
    ensures \forall int r, c; 0 <= r < 4 && 0 <= c < 4 ==> out[c * 4 + r] == in[r * 4 + c];
*/
__global__ void bug_grid_transpose_2d(const int *in, int *out) {
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.x * blockDim.y + threadIdx.y;
    out[c * 4 + r] = in[r * 4 + c];
}
