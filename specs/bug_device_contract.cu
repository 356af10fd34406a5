// expect: failed postcondition:5
// Planted bug: `twice` breaks its contract (it adds 1 too many). The kernel's own VCs hold
// through the contract, but the kernel is not reported verified while `twice` fails.
/*@ requires x >= 0;
    ensures \result == 2 * x;
*/
__device__ int twice(int x) {
    return x + x + 1;
}

/*@ requires gridDim.x == 1; requires blockDim.x == 4;
    requires \forall int k; 0 <= k < 4 ==> a[k] >= 0;
    ensures \forall int k; 0 <= k < 4 ==> a[k] == 2 * \old(a[k]);
*/
__global__ void bug_device_contract(int *a) {
    a[threadIdx.x] = twice(a[threadIdx.x]);
}
