// expect: verified
// `e @ t`: the value of a local at another thread, in postconditions, including a
// neighbour (`x @ (t - 1)`) and a value passed between threads through shared memory.
/*@ requires gridDim.x == 1; ensures \forall int t; 0 <= t < blockDim.x ==> x @ t == 2 * t;
    ensures \forall int t; 0 <= t < blockDim.x ==> y @ t == x @ t + 1;
    ensures \forall int t; 1 <= t < blockDim.x ==> x @ t - x @ (t - 1) == 2;
    ensures \forall int t; 0 <= t < blockDim.x ==> out[t] == y @ (blockDim.x - 1 - t);
*/
__global__ void at_thread(int *out) {
    __shared__ int tile[1024];
    int x = threadIdx.x * 2;
    int y = x + 1;
    tile[threadIdx.x] = y;
    __syncthreads();
    out[threadIdx.x] = tile[blockDim.x - 1 - threadIdx.x];
}
