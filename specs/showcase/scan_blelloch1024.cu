// expect: verified
// The Blelloch (work-efficient) exclusive scan of scan_blelloch8.cu at 1,024 threads, both loops
// unrolled (d is a constant in each copy). Before each barrier, `barrier invariant` clauses state
// the tree: a cell of level e (e the largest power of two dividing j + 1) holds the sum of its e
// inputs, and the round's own level comes first (in the down-sweep: the sum of everything before
// the cell's block). Each barrier is a cut: a round's VCs see the invariant, not the rounds before.
#define N 1024
/*@ requires gridDim.x == 1; requires blockDim.x == 1024;
    ensures \forall int j; 0 <= j < 1024 ==> out[j] == \sum(0, j - 1, \lambda int k; \old(in[k]));
*/
__global__ void scan_blelloch1024(int *in, int *out) {
    __shared__ int t[N];
    t[threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    for (int d = 1; d < N; d *= 2) {  // up-sweep
        if ((threadIdx.x + 1) % (2 * d) == 0) t[threadIdx.x] += t[threadIdx.x - d];
        /*@ barrier invariant \forall int j; 0 <= j < 1024 && (j + 1) % (2 * d) == 0 ==> t[j] == \sum(j - 2 * d + 1, j, \lambda int k; \old(in[k]));
            barrier invariant \forall int j; 0 <= j < 1024 && 1 < 2 * d && (j + 1) % 2 == 1 ==> t[j] == \sum(j, j, \lambda int k; \old(in[k]));
            barrier invariant \forall int j; 0 <= j < 1024 && 2 < 2 * d && (j + 1) % 4 == 2 ==> t[j] == \sum(j - 1, j, \lambda int k; \old(in[k]));
            barrier invariant \forall int j; 0 <= j < 1024 && 4 < 2 * d && (j + 1) % 8 == 4 ==> t[j] == \sum(j - 3, j, \lambda int k; \old(in[k]));
            barrier invariant \forall int j; 0 <= j < 1024 && 8 < 2 * d && (j + 1) % 16 == 8 ==> t[j] == \sum(j - 7, j, \lambda int k; \old(in[k]));
            barrier invariant \forall int j; 0 <= j < 1024 && 16 < 2 * d && (j + 1) % 32 == 16 ==> t[j] == \sum(j - 15, j, \lambda int k; \old(in[k]));
            barrier invariant \forall int j; 0 <= j < 1024 && 32 < 2 * d && (j + 1) % 64 == 32 ==> t[j] == \sum(j - 31, j, \lambda int k; \old(in[k]));
            barrier invariant \forall int j; 0 <= j < 1024 && 64 < 2 * d && (j + 1) % 128 == 64 ==> t[j] == \sum(j - 63, j, \lambda int k; \old(in[k]));
            barrier invariant \forall int j; 0 <= j < 1024 && 128 < 2 * d && (j + 1) % 256 == 128 ==> t[j] == \sum(j - 127, j, \lambda int k; \old(in[k]));
            barrier invariant \forall int j; 0 <= j < 1024 && 256 < 2 * d && (j + 1) % 512 == 256 ==> t[j] == \sum(j - 255, j, \lambda int k; \old(in[k]));
            barrier invariant \forall int j; 0 <= j < 1024 && 512 < 2 * d && (j + 1) % 1024 == 512 ==> t[j] == \sum(j - 511, j, \lambda int k; \old(in[k]));
        */
        __syncthreads();
    }
    if (threadIdx.x == N - 1) t[threadIdx.x] = 0;
    /*@ barrier invariant \forall int j; 0 <= j < 1024 && (j + 1) % 1024 == 0 ==> t[j] == \sum(0, j - 1024, \lambda int k; \old(in[k]));
        barrier invariant \forall int j; 0 <= j < 1024 && 1 < 1024 && (j + 1) % 2 == 1 ==> t[j] == \sum(j, j, \lambda int k; \old(in[k]));
        barrier invariant \forall int j; 0 <= j < 1024 && 2 < 1024 && (j + 1) % 4 == 2 ==> t[j] == \sum(j - 1, j, \lambda int k; \old(in[k]));
        barrier invariant \forall int j; 0 <= j < 1024 && 4 < 1024 && (j + 1) % 8 == 4 ==> t[j] == \sum(j - 3, j, \lambda int k; \old(in[k]));
        barrier invariant \forall int j; 0 <= j < 1024 && 8 < 1024 && (j + 1) % 16 == 8 ==> t[j] == \sum(j - 7, j, \lambda int k; \old(in[k]));
        barrier invariant \forall int j; 0 <= j < 1024 && 16 < 1024 && (j + 1) % 32 == 16 ==> t[j] == \sum(j - 15, j, \lambda int k; \old(in[k]));
        barrier invariant \forall int j; 0 <= j < 1024 && 32 < 1024 && (j + 1) % 64 == 32 ==> t[j] == \sum(j - 31, j, \lambda int k; \old(in[k]));
        barrier invariant \forall int j; 0 <= j < 1024 && 64 < 1024 && (j + 1) % 128 == 64 ==> t[j] == \sum(j - 63, j, \lambda int k; \old(in[k]));
        barrier invariant \forall int j; 0 <= j < 1024 && 128 < 1024 && (j + 1) % 256 == 128 ==> t[j] == \sum(j - 127, j, \lambda int k; \old(in[k]));
        barrier invariant \forall int j; 0 <= j < 1024 && 256 < 1024 && (j + 1) % 512 == 256 ==> t[j] == \sum(j - 255, j, \lambda int k; \old(in[k]));
        barrier invariant \forall int j; 0 <= j < 1024 && 512 < 1024 && (j + 1) % 1024 == 512 ==> t[j] == \sum(j - 511, j, \lambda int k; \old(in[k]));
    */
    __syncthreads();
    for (int d = N / 2; d > 0; d /= 2) {  // down-sweep
        if ((threadIdx.x + 1) % (2 * d) == 0) {
            int x = t[threadIdx.x - d];
            t[threadIdx.x - d] = t[threadIdx.x];
            t[threadIdx.x] += x;
        }
        /*@ barrier invariant \forall int j; 0 <= j < 1024 && (j + 1) % d == 0 ==> t[j] == \sum(0, j - d, \lambda int k; \old(in[k]));
            barrier invariant \forall int j; 0 <= j < 1024 && 1 < d && (j + 1) % 2 == 1 ==> t[j] == \sum(j, j, \lambda int k; \old(in[k]));
            barrier invariant \forall int j; 0 <= j < 1024 && 2 < d && (j + 1) % 4 == 2 ==> t[j] == \sum(j - 1, j, \lambda int k; \old(in[k]));
            barrier invariant \forall int j; 0 <= j < 1024 && 4 < d && (j + 1) % 8 == 4 ==> t[j] == \sum(j - 3, j, \lambda int k; \old(in[k]));
            barrier invariant \forall int j; 0 <= j < 1024 && 8 < d && (j + 1) % 16 == 8 ==> t[j] == \sum(j - 7, j, \lambda int k; \old(in[k]));
            barrier invariant \forall int j; 0 <= j < 1024 && 16 < d && (j + 1) % 32 == 16 ==> t[j] == \sum(j - 15, j, \lambda int k; \old(in[k]));
            barrier invariant \forall int j; 0 <= j < 1024 && 32 < d && (j + 1) % 64 == 32 ==> t[j] == \sum(j - 31, j, \lambda int k; \old(in[k]));
            barrier invariant \forall int j; 0 <= j < 1024 && 64 < d && (j + 1) % 128 == 64 ==> t[j] == \sum(j - 63, j, \lambda int k; \old(in[k]));
            barrier invariant \forall int j; 0 <= j < 1024 && 128 < d && (j + 1) % 256 == 128 ==> t[j] == \sum(j - 127, j, \lambda int k; \old(in[k]));
            barrier invariant \forall int j; 0 <= j < 1024 && 256 < d && (j + 1) % 512 == 256 ==> t[j] == \sum(j - 255, j, \lambda int k; \old(in[k]));
            barrier invariant \forall int j; 0 <= j < 1024 && 512 < d && (j + 1) % 1024 == 512 ==> t[j] == \sum(j - 511, j, \lambda int k; \old(in[k]));
        */
        __syncthreads();
    }
    out[threadIdx.x] = t[threadIdx.x];
}
