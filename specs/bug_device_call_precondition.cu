// expect: failed call-precondition:15
// Planted bug: the call passes a negative value to `half`, whose contract requires x >= 0
// (thread 0 computes threadIdx.x - 1 == -1); the VC stands at the call.
/*@ requires x >= 0;
    ensures 2 * \result <= x && x <= 2 * \result + 1;
*/
__device__ int half(int x) {
    return x / 2;
}

/*@ requires blockDim.x == 4;
*/
__global__ void bug_device_call_precondition(int *a) {
    int v = (int)threadIdx.x - 1;
    a[threadIdx.x] = half(v);
}
