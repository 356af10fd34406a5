/*@ requires blockDim.x == 2;
    requires a[0] == 6 && a[1] == 2;
    ensures a[0] == 6 && a[1] == 2;
    requires b[0] == -4 && b[1] == -1;
    ensures b[0] == -3 && b[1] == 0;
    requires out[0] == -4 && out[1] == -2;
    ensures out[0] == -4 && out[1] == -2;
*/
__global__ void k211(int *a, int *b, int *out) {
    int x = 0;
    int y = a[threadIdx.x];
    y -= ((3 * b[threadIdx.x]) % (-2));
    x = x;
    __syncthreads();
    b[threadIdx.x] += ((x - x) - (out[(threadIdx.x + 2) % blockDim.x] >> 2));
    __syncthreads();
    x += ((threadIdx.x * out[threadIdx.x]) - x);
    --x;
    if (threadIdx.x > 1) {
        /*@ loop invariant 0 <= i0 && i0 <= 0; */
        for (int i0 = 0; i0 < 0; i0++) {
            y = x;
        }
    } else {
        x -= ((y + y) - 3);
    }
}
