/*@ requires blockDim.x == 3;
    requires a[0] == 9 && a[1] == 9 && a[2] == -2;
    ensures a[0] == 9 && a[1] == 9 && a[2] == -2;
    requires b[0] == 0 && b[1] == 1 && b[2] == 7;
    ensures b[0] == 0 && b[1] == 1 && b[2] == 7;
    requires out[0] == -4 && out[1] == 2 && out[2] == 0;
    ensures out[0] == -1 && out[1] == -1 && out[2] == 0;
*/
__global__ void k198(int *a, int *b, int *out) {
    int x = 0;
    int y = threadIdx.x;
    /*@ loop invariant 0 <= i0 && i0 <= 3; */
    for (int i0 = 0; i0 < 3; i0++) {
        out[threadIdx.x] = ((threadIdx.x - i0) >> 2);
        --x;
    }
}
