// expect: verified
// Every compound assignment and increment form on a per-thread local, and `+=` on a shared
// array cell. Values (t = threadIdx.x >= 0): t+3, 2t+6, 2t+5, 2t+6, 2t+7, 2t+6, 2t+5,
// t+2 (truncating division of a non-negative value), 4t+8, 2t+4; then (2t+4) % 2 == 0.
/*@ requires gridDim.x == 1; ensures r[threadIdx.x] == 2 * threadIdx.x + 4;
    ensures w == 0;
    ensures a[threadIdx.x] == \old(a[threadIdx.x]) + 6;
*/
__global__ void compound_assign(int *r, int *a) {
    int x = threadIdx.x;
    x += 3;
    x *= 2;
    x -= 1;
    x++;
    ++x;
    x--;
    --x;
    x /= 2;
    x <<= 2;
    x >>= 1;
    r[threadIdx.x] = x;
    int w = x;
    w %= 2;
    a[threadIdx.x] += 5;
    a[threadIdx.x] += w + 1;
}
