// expect: verified
// More unrolled loops without invariants: a doubling stride `s *= 2`, a `while` loop with
// its counter stepped in the body, and a triangular nest whose inner bound is the outer
// counter (known in each unrolled copy of the outer loop).
/*@ ensures out[threadIdx.x] == 7 + 3 + 3; */
__global__ void unroll_nested(int *out) {
    int acc = 0;
    for (int s = 1; s < 8; s *= 2) {
        acc += s;
    }
    int k = 0;
    while (k < 3) {
        acc++;
        k = k + 1;
    }
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < i; j++) {
            acc += 1;
        }
    }
    out[threadIdx.x] = acc;
}
