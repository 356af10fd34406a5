// expect: verified
// Shifts by a variable amount (exact for amounts 0..63) and the power-of-two test `(n & (n - 1)) == 0` (exact below 2^64) in a precondition (4 threads).
/*@ requires blockDim.x == 4;
    requires (n & (n - 1)) == 0 && n > 0 && n <= 1024;
    requires 0 <= k && k < 10;
    ensures n % 2 == 0 || n == 1;
    ensures p >= 1 && p <= 512;
    ensures \forall int j; 0 <= j < 4 ==> a[j] == j * p;
    ensures \forall int j; 0 <= j < 4 ==> b[j] == j / p;
*/
__global__ void bitops_variable_shift(int *a, int *b, int n, int k) {
    int p = 1 << k;
    a[threadIdx.x] = threadIdx.x << k;
    b[threadIdx.x] = threadIdx.x >> k;
}
