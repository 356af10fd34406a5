// expect: verified
// C division and remainder on mathematical integers: `/` truncates toward zero and `%`
// takes the sign of the dividend (C99 6.5.5). SMT-LIB's div/mod are Euclidean and give
// -4 and 1 for (-7, 2), so an encoding that uses them directly fails here.
/*@ requires gridDim.x == 1; ensures q1 == -3;
    ensures r1 == -1;
    ensures q2 == -3;
    ensures r2 == 1;
    ensures q3 == 3;
    ensures r3 == -1;
    ensures 2 * h + md == x;
    ensures x < 0 ==> md <= 0 && 2 * h >= x;
    ensures x >= 0 ==> md >= 0 && 2 * h <= x;
*/
__global__ void c_division(int *out) {
    int m = -7;
    int q1 = m / 2;
    int r1 = m % 2;
    int q2 = 7 / (-2);
    int r2 = 7 % (-2);
    int q3 = m / (-2);
    int r3 = m % (-2);
    int t = threadIdx.x;
    int x = t - 5;
    int h = x / 2;
    int md = x % 2;
    out[threadIdx.x] = h + md;
}
