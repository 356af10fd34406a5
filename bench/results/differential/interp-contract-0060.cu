/*@ requires blockDim.x == 3;
    requires a[0] == 0 && a[1] == -2 && a[2] == -1;
    ensures a[0] == 0 && a[1] == -2 && a[2] == -1;
    requires b[0] == 2 && b[1] == 8 && b[2] == 5;
    ensures b[0] == -1 && b[1] == -1 && b[2] == -1;
    requires out[0] == -4 && out[1] == -3 && out[2] == 7;
    ensures out[0] == -4 && out[1] == -3 && out[2] == 7;
*/
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
