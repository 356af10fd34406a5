// expect: failed postcondition:4
// Planted bug: a pointer offset off by one (&out[2] for &out[1]) writes every result one cell too far.
/*@ requires gridDim.x == 1; requires blockDim.x == 8 && n >= 0;
    ensures \forall int j; 0 <= j < 8 ==> out[j + 1] == in[2 * j] + 1;
    ensures \forall int j; 0 <= j < 8 ==> dist[j] == 3;
    ensures \forall int j; 0 <= j < n ==> row[j] == j;
*/
__global__ void pointer_offsets(const int *in, int *out, int *dist, int *row, int n) {
    __shared__ int tile[16];
    const int *src = in + 2 * threadIdx.x;
    int *dst = &out[2];
    tile[threadIdx.x] = *src;
    __syncthreads();
    int *t = tile;
    t += threadIdx.x;
    int local[4];
    int *l = local;
    *l = 1;
    l++;
    *(l + 1) = 2;
    int *end = l + 2;
    dist[threadIdx.x] = end - local;
    dst[threadIdx.x] = *t + local[0];
    if (threadIdx.x == 0) {
        int *r = row;
        int k = 0;
        /*@ loop invariant 0 <= k <= n || n < 0;
            loop invariant r == row + k;
            loop invariant \forall int j; 0 <= j < k ==> row[j] == j;
        */
        while (k < n) {
            *r = k;
            r++;
            k++;
        }
    }
}
