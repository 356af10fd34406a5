// expect: verified
// Every thread adds 1 to one counter and takes the maximum into another cell: correct only because atomics serialise the updates; the sum over the threads (4 of them) and the maximum are exact whatever the order.
/*@ requires blockDim.x == 4 && blockDim.y == 1 && blockDim.z == 1 && gridDim.x == 1 && gridDim.y == 1 && gridDim.z == 1;
    ensures count[0] == \old(count[0]) + 4;
    ensures top[0] >= \old(top[0]) && top[0] >= 3;
    ensures other[0] == \old(other[0]); */
__global__ void atomic_shared_counter(int *count, int *top, int *other) {
  atomicAdd(&count[0], 1);
  atomicMax(&top[0], threadIdx.x);
}
