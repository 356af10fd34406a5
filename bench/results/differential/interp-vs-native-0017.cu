/*@ requires blockDim.x == 4;
    requires a[0] == -4 && a[1] == -3 && a[2] == 3 && a[3] == -2;
    ensures a[0] == -4 && a[1] == -3 && a[2] == 3 && a[3] == -2;
    requires b[0] == 4 && b[1] == -2 && b[2] == 7 && b[3] == -4;
    ensures b[0] == 1 && b[1] == -4 && b[2] == -3 && b[3] == -7;
    requires out[0] == 3 && out[1] == 1 && out[2] == 1 && out[3] == 0;
    ensures out[0] == 3 && out[1] == 1 && out[2] == 1 && out[3] == 0;
*/
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
