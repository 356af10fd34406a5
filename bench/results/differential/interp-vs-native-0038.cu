__global__ void k82(int *a, int *b, int *out) {
    int x = 0;
    int y = threadIdx.x;
    y += -1;
    __syncthreads();
    if (threadIdx.x > 0) {
        /*@ loop invariant 0 <= i0 && i0 <= 2; */
        for (int i0 = 0; i0 < 2; i0++) {
            y = x;
            --y;
            x = ((i0 - a[threadIdx.x]) > (i0 >> 1) ? (x - i0) : (y >> 1));
        }
        /*@ loop invariant 0 <= i1 && i1 <= 1; */
        for (int i1 = 0; i1 < 1; i1++) {
            --y;
        }
        y += ((blockDim.x / 5) + (y / 3));
    }
    __syncthreads();
    b[threadIdx.x] += y;
    x -= ((y * x) != x ? (threadIdx.x - threadIdx.x) : threadIdx.x);
}
