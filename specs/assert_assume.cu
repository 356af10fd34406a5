// expect: verified
// `assert` is checked for the threads active where it stands (inside the branch only odd
// threads, so `v >= 2` holds there although it fails for thread 0); `assume` adds a fact
// that a later assertion relies on.
/*@ requires gridDim.x == 1; ensures threadIdx.x % 2 == 1 ==> out[threadIdx.x] == a[0];
*/
__global__ void assert_assume(int *a, int *out) {
    int v = threadIdx.x * 2;
    //@ assert v % 2 == 0;
    //@ assert v >= threadIdx.x;
    //@ assume a[0] > 0;
    int w = a[0];
    //@ assert w >= 1;
    if (threadIdx.x % 2 == 1) {
        //@ assert threadIdx.x >= 1;
        //@ assert v >= 2;
        out[threadIdx.x] = w;
    }
}
