__global__ void k108(int *a, int *b, int *out) {
    int x = 0;
    int y = threadIdx.x;
    x = -2;
    if ((x % 3) == (y * threadIdx.x)) {
        a[threadIdx.x] -= (threadIdx.x % 2 == 1 ? (x == a[threadIdx.x] ? x : threadIdx.x) : (threadIdx.x % 2 == 1 ? a[threadIdx.x] : x));
        /*@ loop invariant 0 <= i0 && i0 <= 3; */
        for (int i0 = 0; i0 < 3; i0++) {
            b[threadIdx.x] += (i0 == (x * a[threadIdx.x]) ? (x - i0) : (y * x));
            --x;
            a[threadIdx.x] = ((y + i0) >> 1);
        }
        if ((threadIdx.x - y) <= (y / 2)) {
            x = x;
        } else {
            a[threadIdx.x] -= (threadIdx.x % (-2));
            y++;
            --x;
        }
    } else {
        a[threadIdx.x] = ((threadIdx.x % 2 == 0 ? 4 : a[threadIdx.x]) - (x >> 2));
        a[threadIdx.x] += (y - out[threadIdx.x]);
    }
    /*@ loop invariant 0 <= i1 && i1 <= 0; */
    for (int i1 = 0; i1 < 0; i1++) {
        y = (i1 / 3);
        x = x;
        y = ((out[(threadIdx.x + 1) % blockDim.x] * y) + (x / 5));
    }
    __syncthreads();
    x++;
    if (threadIdx.x <= 1) {
        out[threadIdx.x] += y;
        if (threadIdx.x != 1) {
            x = (threadIdx.x == 1 ? (y + y) : (1 >> 1));
            y = (threadIdx.x == 0 ? y : y);
            x = ((x * 1) / (-2));
        } else {
            y = (threadIdx.x < 1 ? (x - b[threadIdx.x]) : (2 / (-2)));
            a[threadIdx.x] = threadIdx.x;
            x = ((3 - x) + x);
        }
    } else {
        if (((x >> 2) <= 0 && threadIdx.x != 1)) {
            y = out[threadIdx.x];
            x = (threadIdx.x == 1 ? (x - y) : x);
            x = ((threadIdx.x + y) - y);
        } else {
            y = threadIdx.x;
        }
        x = ((y * 2) / 5);
        a[threadIdx.x] = 2;
    }
    x += ((y * x) - (y * x));
}
