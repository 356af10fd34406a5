// expect: verified
// Two pointers into one __shared__ array alias: a write through one is read through the other; a pointer chosen by a condition (two targets) and a device function writing through pointers (&x of a local).
__device__ void store_double(int *dst, int v) {
    *dst = 2 * v;
}

/*@ requires gridDim.x == 1; requires blockDim.x == 4;
    ensures \forall int j; 0 <= j < 4 ==> out[j] == 10 * j + 7;
    ensures \forall int j; 0 <= j < 4 ==> pick[j] == (j % 2 == 0 ? a[j] : b[j]);
    ensures \forall int j; 0 <= j < 4 ==> twice[j] == 2 * j;
    ensures \forall int j; 0 <= j < 2 ==> low[j] == j + 1 && high[j + 2] == j + 3;
*/
__global__ void pointer_aliasing(int *out, const int *a, const int *b, int *pick, int *twice, int *low, int *high) {
    __shared__ int s[8];
    int *lo = s;
    int *hi = s + 4;
    hi[threadIdx.x] = 10 * threadIdx.x;
    __syncthreads();
    int *same = lo + 4;
    same[threadIdx.x] += 7;
    __syncthreads();
    out[threadIdx.x] = hi[threadIdx.x];
    const int *p = threadIdx.x % 2 == 0 ? a : b;
    pick[threadIdx.x] = p[threadIdx.x];
    int x;
    store_double(&x, threadIdx.x);
    twice[threadIdx.x] = x;
    int *half = threadIdx.x < 2 ? low : high;
    half++;
    half[(int)threadIdx.x - 1] = threadIdx.x + 1;
}
