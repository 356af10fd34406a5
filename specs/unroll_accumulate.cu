// expect: verified
// Loops without invariants, unrolled: a `#define`d 4-iteration accumulation and a
// `const int` countdown with `--k`. Each trip count is a constant that does not depend on
// the thread, so no invariant is needed (with `--unroll 0` the postcondition fails).
#define REPS 4
/*@ ensures out[threadIdx.x] == 4 * \old(in[threadIdx.x]) + 6; */
__global__ void unroll_accumulate(int *in, int *out) {
    int x = in[threadIdx.x];
    int acc = 0;
    for (int k = 0; k < REPS; k++) {
        acc += x;
    }
    const int top = 3;
    for (int k = top; k >= 0; --k) {
        acc += k;
    }
    out[threadIdx.x] = acc;
}
