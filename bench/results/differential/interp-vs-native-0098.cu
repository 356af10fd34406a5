__global__ void k186(int *a, int *b, int *out) {
    int x = 0;
    int y = a[threadIdx.x];
    --x;
    if ((y + a[(threadIdx.x + 3) % blockDim.x]) >= threadIdx.x) {
        if (!(threadIdx.x != (y + 0) && (y + out[blockDim.x - 1 - threadIdx.x]) != x)) {
            b[threadIdx.x] += y;
            b[threadIdx.x] = ((b[threadIdx.x] * y) + (x + threadIdx.x));
            b[threadIdx.x] = threadIdx.x;
        } else {
            y -= ((b[threadIdx.x] * threadIdx.x) + ((y - y) != (y + 2) ? -1 : threadIdx.x));
        }
        /*@ loop invariant 0 <= i0 && i0 <= 1; */
        for (int i0 = 0; i0 < 1; i0++) {
            b[threadIdx.x] = b[threadIdx.x];
            x = (out[1] <= (blockDim.x * i0) ? (y + y) : (i0 / (-2)));
            y = (!((i0 * y) <= threadIdx.x && (i0 >> 1) >= x) ? (5 * blockDim.x) : (y - x));
        }
        b[threadIdx.x] += (x + (blockDim.x + x));
    } else {
        if (threadIdx.x < 2) {
            x = ((-2 / 3) - (b[threadIdx.x] - a[1]));
            y = (x * (x + 2));
            b[threadIdx.x] += ((x + x) / 2);
        } else {
            y = ((y % 2) - (x - x));
        }
        if (x < (threadIdx.x - y)) {
            y = ((x < y && (out[(threadIdx.x + 1) % blockDim.x] + y) == (y / 5)) ? (threadIdx.x - out[blockDim.x - 1 - threadIdx.x]) : y);
            x++;
            y = y;
        } else {
            y = threadIdx.x;
        }
        b[threadIdx.x] -= (x * (out[blockDim.x - 1 - threadIdx.x] + y));
    }
    if (((threadIdx.x + 2) >= (x * out[blockDim.x - 1 - threadIdx.x]) ? x : x) <= (out[threadIdx.x] % 3)) {
        x++;
        if (((a[threadIdx.x] / 3) < x && threadIdx.x % 2 == 0)) {
            y += (((y + x) != (y >> 1) || threadIdx.x != 2) ? (threadIdx.x + threadIdx.x) : x);
        }
        /*@ loop invariant 0 <= i1 && i1 <= 3; */
        for (int i1 = 0; i1 < 3; i1++) {
            x = y;
            b[threadIdx.x] = (((threadIdx.x * y) >= blockDim.x ? x : y) - (threadIdx.x > 2 ? x : y));
            y = (threadIdx.x != 0 ? (x - out[threadIdx.x]) : (a[threadIdx.x] + b[threadIdx.x]));
        }
    } else {
        if (threadIdx.x == 2) {
            b[threadIdx.x] -= ((y - x) + (x - -1));
            x = ((y - threadIdx.x) + threadIdx.x);
            x = (threadIdx.x < 0 ? y : (b[threadIdx.x] >> 2));
        } else {
            --x;
            y -= x;
        }
        x -= ((x + x) + (b[threadIdx.x] * threadIdx.x));
    }
    __syncthreads();
    x = (threadIdx.x + (y - x));
    a[threadIdx.x] += ((y + b[threadIdx.x]) + (x * y));
    __syncthreads();
    a[threadIdx.x] = (y >> 1);
    b[threadIdx.x] += threadIdx.x;
}
