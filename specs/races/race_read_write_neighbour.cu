// expect: failed data-race:7
// Read-write race: thread t reads a[t + 1] (line 6) and thread t + 1 writes it (line 7), no barrier between.
/*@ requires blockDim.x == 4;
*/
__global__ void read_write_neighbour(int *a) {
    int x = a[threadIdx.x + 1];
    a[threadIdx.x] = x;
}
