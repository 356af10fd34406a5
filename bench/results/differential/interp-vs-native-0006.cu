__global__ void k15(int *a, int *b, int *out) {
    int x = 0;
    int y = a[threadIdx.x];
    if ((threadIdx.x <= 3 && threadIdx.x != 3)) {
        if (threadIdx.x != 2) {
            a[threadIdx.x] -= ((y - y) - x);
            y = ((-2 - y) >> 1);
            b[threadIdx.x] -= ((y >> 2) - x);
        }
        if (out[0] != (y - x)) {
            y = ((x * b[threadIdx.x]) % 2);
            y = blockDim.x;
            y = y;
        }
        if (threadIdx.x < 0) {
            x = (threadIdx.x % 2 == 0 ? (y + x) : (threadIdx.x * a[threadIdx.x]));
        } else {
            y = ((y + threadIdx.x) - (threadIdx.x - -3));
        }
    }
    x = y;
    __syncthreads();
    /*@ loop invariant 0 <= i0 && i0 <= 3; */
    for (int i0 = 0; i0 < 3; i0++) {
        if (((out[threadIdx.x] + y) == y || threadIdx.x != 3)) {
            --y;
            y = x;
        }
        if ((x >> 1) > y) {
            x -= (y - (i0 * i0));
            x = ((4 - 0) / 2);
        }
    }
    /*@ loop invariant 0 <= i1 && i1 <= 0; */
    for (int i1 = 0; i1 < 0; i1++) {
        x = i1;
    }
    __syncthreads();
    x = (blockDim.x - (x * out[(threadIdx.x + 2) % blockDim.x]));
}
