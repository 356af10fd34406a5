__global__ void k201(int *a, int *b, int *out) {
    int x = 0;
    int y = threadIdx.x;
    /*@ loop invariant 0 <= i0 && i0 <= 3; */
    for (int i0 = 0; i0 < 3; i0++) {
        /*@ loop invariant 0 <= i1 && i1 <= 2; */
        for (int i1 = 0; i1 < 2; i1++) {
            x = (x % 5);
            out[threadIdx.x] += ((x + i0) / 5);
        }
        x -= x;
        y += ((y >> 1) * ((threadIdx.x % (-2)) <= (i0 - i0) ? b[threadIdx.x] : i0));
        __syncthreads();
    }
    __syncthreads();
    b[threadIdx.x] = (((y - b[threadIdx.x]) > (x + threadIdx.x) ? y : y) < x ? (y + x) : (threadIdx.x != 0 ? threadIdx.x : y));
    __syncthreads();
    x = (x % 2);
}
