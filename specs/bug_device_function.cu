// expect: failed postcondition:8
// Planted bug: the helper writes to the neighbour's cell (a wrong index inside a
// __device__ function); inlined at the call, the postcondition is refuted.
__device__ void put(int *p, int i, int v) {
    p[(i + 1) % blockDim.x] = v;
}
/*@ requires blockDim.x == 4;
    ensures \forall int j; 0 <= j < 4 ==> out[j] == 2 * a[j];
*/
__global__ void bug_device_function(const int *a, int *out) {
    put(out, threadIdx.x, 2 * a[threadIdx.x]);
}
