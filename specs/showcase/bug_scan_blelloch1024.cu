// expect: failed barrier-invariant:32
// scan_blelloch1024.cu without the line that clears the root before the down-sweep (line 31):
// at the barrier after it, the root still holds the total, not the empty sum. z3 finds no model
// of the prefix sums' step axiom within the timeout (the bug needs an input that is not zero),
// so the VC is undecided; the random run that `verify` then makes violates the clause, and the
// kernel fails on that evidence (README, "Command-line reference", `verify`).
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
    // missing: if (threadIdx.x == N - 1) t[threadIdx.x] = 0;
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
