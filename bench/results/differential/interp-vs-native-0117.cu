__global__ void k199(int *a, int *b, int *out) {
    int x = 0;
    int y = 1;
    --y;
    if (threadIdx.x != 3) {
        a[threadIdx.x] += ((x / 5) >= threadIdx.x ? (b[blockDim.x - 1 - threadIdx.x] >> 1) : x);
        out[threadIdx.x] = ((threadIdx.x >= ((x * x) != (1 - y) ? y : y) ? blockDim.x : x) * x);
        out[threadIdx.x] += 2;
    }
    x += x;
}
