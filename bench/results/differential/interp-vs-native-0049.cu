__global__ void k102(int *a, int *b, int *out) {
    int x = 0;
    int y = 1;
    y -= ((x - y) + ((x != (threadIdx.x != 2 ? 0 : x) ? b[threadIdx.x] : y) <= x ? y : x));
    if (threadIdx.x == 0) {
        y -= ((y * x) / 5);
        if (threadIdx.x == 0) {
            b[threadIdx.x] += a[blockDim.x - 1 - threadIdx.x];
            y -= 3;
        } else {
            b[threadIdx.x] = ((y - x) + y);
            b[threadIdx.x] -= ((out[1] % 2) >= (y + b[threadIdx.x]) ? (5 - x) : 0);
        }
        x = a[blockDim.x - 1 - threadIdx.x];
    } else {
        x = ((y >> 2) - (y + blockDim.x));
    }
    b[threadIdx.x] = ((x >> 1) >> 2);
}
