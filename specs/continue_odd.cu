// expect: verified
// `continue` in a `for` loop skips the rest of the iteration but not the step: each thread
// counts the odd i below 8.
/*@ ensures out[threadIdx.x] == 4; */
__global__ void continue_odd(int *out) {
    int c = 0;
    /*@ loop invariant 0 <= i && i <= 8;
        loop invariant c == i / 2;
    */
    for (int i = 0; i < 8; i++) {
        if (i % 2 == 0)
            continue;
        c++;
    }
    out[threadIdx.x] = c;
}
