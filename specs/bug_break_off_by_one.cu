// expect: failed postcondition:5
// Planted bug: as break_search.cu, but the first ensures forgets the break (thread 3 ends
// with 2, not 3); the second, a true bound, is proved.
/*@ requires blockDim.x == 4;
    ensures \forall int j; 0 <= j < 4 ==> out[j] == j;
    ensures \forall int j; 0 <= j < 4 ==> out[j] <= 3;
*/
__global__ void bug_break_off_by_one(int *out) {
    int k = 0;
    /*@ loop invariant 0 <= k && k <= threadIdx.x && k <= 2; */
    while (k < threadIdx.x) {
        if (k == 2)
            break;
        k++;
    }
    out[threadIdx.x] = k;
}
