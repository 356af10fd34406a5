__global__ void k44(int *a, int *b, int *out) {
    int x = 0;
    int y = threadIdx.x;
    if ((2 + threadIdx.x) >= y) {
        if (x <= (y - y)) {
            y = ((y - x) * y);
            x += ((y - x) / 5);
            x = a[blockDim.x - 1 - threadIdx.x];
        }
        if ((b[threadIdx.x] + out[blockDim.x - 1 - threadIdx.x]) == (2 % 2)) {
            x++;
            --y;
        } else {
            y = y;
            y -= ((y % (-2)) >> 1);
            b[threadIdx.x] = ((x + y) + (y / 2));
        }
    } else {
        /*@ loop invariant 0 <= i0 && i0 <= 1; */
        for (int i0 = 0; i0 < 1; i0++) {
            y = ((threadIdx.x != 1 ? x : i0) + (i0 + y));
        }
    }
    if ((y - -3) < ((b[threadIdx.x] * x) == (x * x) ? y : x)) {
        b[threadIdx.x] -= ((x + out[blockDim.x - 1 - threadIdx.x]) - b[threadIdx.x]);
    }
    b[threadIdx.x] += y;
    __syncthreads();
    b[threadIdx.x] = ((x >> 1) - (x % 5));
    b[threadIdx.x] -= y;
    if ((x - threadIdx.x) >= (threadIdx.x != 1 ? x : b[threadIdx.x])) {
        b[threadIdx.x] += ((x % 5) * (0 / 3));
        b[threadIdx.x] -= (threadIdx.x % 2);
    }
}
