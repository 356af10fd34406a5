// expect: failed postcondition:7
// Planted bug: the block offset forgets to multiply by blockDim.x, so blocks overlap and
// some elements are never written (e.g. 2 blocks of 2 threads write only c[0..2]).
/*@ requires blockDim.x == 2;
    requires gridDim.x == 2;
    requires n == 4;
    ensures \forall int k; 0 <= k < n ==> c[k] == a[k] + b[k];
*/
__global__ void bug_grid_wrong_offset(const int *a, const int *b, int *c, int n) {
    int i = blockIdx.x + threadIdx.x;
    if (i < n) {
        c[i] = a[i] + b[i];
    }
}
