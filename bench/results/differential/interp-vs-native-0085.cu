__global__ void k149(int *a, int *b, int *out) {
    int x = 0;
    int y = 1;
    /*@ loop invariant 0 <= i0 && i0 <= 2; */
    for (int i0 = 0; i0 < 2; i0++) {
        if (y < (threadIdx.x - out[threadIdx.x])) {
            --x;
        } else {
            y++;
            x++;
        }
        if (threadIdx.x == 0) {
            y = (((y * 1) >= (x + y) || threadIdx.x != 0) ? (y - x) : (out[threadIdx.x] * threadIdx.x));
            y -= (a[threadIdx.x] + (threadIdx.x + i0));
            a[threadIdx.x] = i0;
        } else {
            a[threadIdx.x] = (a[threadIdx.x] / (-2));
            a[threadIdx.x] = (((i0 - a[threadIdx.x]) != (y * x) ? -2 : y) + (0 - y));
        }
        __syncthreads();
    }
    __syncthreads();
    if (threadIdx.x % 2 == 1) {
        /*@ loop invariant 0 <= i1 && i1 <= 0; */
        for (int i1 = 0; i1 < 0; i1++) {
            y = y;
        }
        y = ((3 >> 1) / 3);
        out[threadIdx.x] += a[threadIdx.x];
    } else {
        x -= ((threadIdx.x < 1 ? blockDim.x : b[threadIdx.x]) * (b[threadIdx.x] >> 1));
        y = (x + (a[threadIdx.x] - a[threadIdx.x]));
    }
    if ((y + threadIdx.x) != (x * a[threadIdx.x])) {
        if (threadIdx.x > 0) {
            y = ((a[threadIdx.x] + y) + (x + blockDim.x));
            out[threadIdx.x] = ((y / (-2)) + (threadIdx.x < 0 ? y : blockDim.x));
            --x;
        }
    } else {
        out[threadIdx.x] += ((y % 5) % 3);
    }
    __syncthreads();
    b[threadIdx.x] += ((y * blockDim.x) >> 2);
    y = out[0];
    if (threadIdx.x <= 1) {
        y -= blockDim.x;
        y += ((y / 2) - ((3 >> 2) <= (threadIdx.x % 2 == 1 ? 5 : y) ? x : y));
        y = ((threadIdx.x - x) - x);
    } else {
        y = -2;
        y = ((y - threadIdx.x) + (y - 3));
        x++;
    }
}
