__global__ void k185(int *a, int *b, int *out) {
    int x = 0;
    int y = a[threadIdx.x];
    y -= ((threadIdx.x == 0 || y <= (x + y)) ? (blockDim.x / 2) : y);
    if (y >= (x + 3)) {
        /*@ loop invariant 0 <= i0 && i0 <= 0; */
        for (int i0 = 0; i0 < 0; i0++) {
            y++;
            x = (((2 + threadIdx.x) != (i0 * i0) ? x : i0) + (threadIdx.x + x));
            b[threadIdx.x] -= (((4 - -2) < ((a[threadIdx.x] >> 2) < i0 ? 5 : y) ? 5 : x) / (-2));
        }
        y = ((y % 3) + (a[0] - blockDim.x));
    }
    if (threadIdx.x < 1) {
        b[threadIdx.x] = ((threadIdx.x == 1 || out[threadIdx.x] == (y >> 2)) ? a[blockDim.x - 1 - threadIdx.x] : ((x + 3) == y ? y : x));
    }
}
