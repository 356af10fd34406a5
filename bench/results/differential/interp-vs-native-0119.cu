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
