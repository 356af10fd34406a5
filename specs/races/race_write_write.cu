// expect: failed data-race:6
// Write-write race among the active threads of one assignment: every thread stores its own id into out[0].
/*@ requires blockDim.x == 4;
*/
__global__ void write_write(int *out) {
    out[0] = threadIdx.x;
}
