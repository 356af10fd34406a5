__global__ void k59(int *a, int *b, int *out) {
    int x = 0;
    int y = a[threadIdx.x];
    x += (y >> 2);
    /*@ loop invariant 0 <= i0 && i0 <= 1; */
    for (int i0 = 0; i0 < 1; i0++) {
        out[threadIdx.x] -= (threadIdx.x % 2 == 0 ? (blockDim.x >> 1) : (threadIdx.x < 2 ? blockDim.x : y));
        /*@ loop invariant 0 <= i1 && i1 <= 0; */
        for (int i1 = 0; i1 < 0; i1++) {
            out[threadIdx.x] += i1;
            x = threadIdx.x;
        }
        out[threadIdx.x] -= out[threadIdx.x];
    }
    if (threadIdx.x > 1) {
        --y;
        --x;
        x++;
    }
    __syncthreads();
    y = (y + ((x * x) <= threadIdx.x ? out[threadIdx.x] : threadIdx.x));
    b[threadIdx.x] = x;
}
