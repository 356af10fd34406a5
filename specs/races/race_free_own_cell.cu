// expect: verified
// Race-free: each thread reads and writes only its own cell a[t]; the postcondition holds too.
/*@ requires gridDim.x == 1; requires blockDim.x == 4;
    ensures \forall int j; 0 <= j < 4 ==> a[j] == \old(a[j]) + 1;
*/
__global__ void own_cell(int *a) {
    int x = a[threadIdx.x];
    a[threadIdx.x] = x + 1;
}
