__global__ void k198(int *a, int *b, int *out) {
    int x = 0;
    int y = threadIdx.x;
    /*@ loop invariant 0 <= i0 && i0 <= 3; */
    for (int i0 = 0; i0 < 3; i0++) {
        out[threadIdx.x] = ((threadIdx.x - i0) >> 2);
        --x;
    }
}
