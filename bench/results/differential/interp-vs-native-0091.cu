__global__ void k171(int *a, int *b, int *out) {
    int x = 0;
    int y = 1;
    --x;
    y = ((b[threadIdx.x] + y) >> 2);
    __syncthreads();
    y++;
    a[threadIdx.x] -= ((threadIdx.x * y) + (b[threadIdx.x] % (-2)));
    if ((y == (5 - y) || threadIdx.x % 2 == 0)) {
        a[threadIdx.x] += ((threadIdx.x + 0) + (3 % 3));
        /*@ loop invariant 0 <= i0 && i0 <= 0; */
        for (int i0 = 0; i0 < 0; i0++) {
            --x;
            y = (x - (x >> 2));
            b[threadIdx.x] += (threadIdx.x + (threadIdx.x != 0 ? y : threadIdx.x));
        }
        --x;
    }
}
