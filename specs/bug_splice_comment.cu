// expect: failed postcondition:4
// Planted bug (issue 8): the final write sits on a line spliced into a `//` comment by the
// backslash-newline before it, so C never executes it and out keeps 1.
/*@ requires gridDim.x == 1; ensures out[threadIdx.x] == 5; */
__global__ void bug_splice_comment(int *out) {
    out[threadIdx.x] = 1;
    // set the final value \
    out[threadIdx.x] = 5;
}
