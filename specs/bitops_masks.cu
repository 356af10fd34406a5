// expect: verified
// Bit operators with a constant operand are exact: a lane `tid & 3` and group `tid >> 2`, the XOR partner `tid ^ 1`, `&= |= ^=`, and `~` on int (8 threads).
/*@ requires blockDim.x == 8;
    ensures \forall int j; 0 <= j < 8 ==> lane[j] == j % 4 && group[j] == j / 4;
    ensures \forall int j; 0 <= j < 8 ==> out[j] == \old(in[j % 2 == 0 ? j + 1 : j - 1]);
    ensures \forall int j; 0 <= j < 8 ==> flags[j] == 4 + j % 4 + (j % 2 == 0 ? 1 : -1);
    ensures \forall int j; 0 <= j < 8 ==> neg[j] == -j - 1 && neg[j] == ~j;
*/
__global__ void bitops_masks(int *lane, int *group, int *in, int *out, int *flags, int *neg) {
    unsigned int t = threadIdx.x;
    lane[t] = t & 3;
    group[t] = t >> 2;
    out[t] = in[t ^ 1];
    int f = t;
    f &= 3;
    f |= 4;
    f ^= 1;
    flags[t] = f;
    neg[t] = ~(int)t;
}
