__global__ void k97(int *a, int *b, int *out) {
    int x = 0;
    int y = 1;
    y++;
    y++;
    y = (threadIdx.x % 2 == 0 ? (y >> 1) : (x >> 2));
    __syncthreads();
    x = (((x / 5) >= (x <= (-1 - 2) ? y : blockDim.x) ? -1 : out[threadIdx.x]) >> 2);
    out[threadIdx.x] -= x;
    /*@ loop invariant 0 <= i0 && i0 <= 2; */
    for (int i0 = 0; i0 < 2; i0++) {
        if (threadIdx.x == 0) {
            y++;
            x = ((blockDim.x >> 1) % 2);
            out[threadIdx.x] -= y;
        }
        if ((threadIdx.x % 2 == 0 ? y : y) != (x >> 2)) {
            out[threadIdx.x] += threadIdx.x;
            --y;
        }
    }
    __syncthreads();
    if (x > (x + b[threadIdx.x])) {
        if (threadIdx.x < 0) {
            x++;
            --y;
        }
    } else {
        y += (x % (-2));
        y++;
    }
    /*@ loop invariant 0 <= i1 && i1 <= 1; */
    for (int i1 = 0; i1 < 1; i1++) {
        --x;
        --x;
    }
    --y;
}
