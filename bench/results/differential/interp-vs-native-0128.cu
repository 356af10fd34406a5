__global__ void k236(int *a, int *b, int *out) {
    int x = 0;
    int y = threadIdx.x;
    if ((x - 5) >= (x - blockDim.x)) {
        if (threadIdx.x != 1) {
            y = ((y * x) >> 1);
            x = (y + (threadIdx.x > 2 ? a[threadIdx.x] : y));
        } else {
            y = (out[threadIdx.x] >> 1);
        }
        y += y;
        if (threadIdx.x != 0) {
            --y;
            out[threadIdx.x] = y;
        } else {
            --y;
            y = ((x + y) / 2);
            y = ((x * x) - y);
        }
    }
}
