// expect: failed postcondition:6
// planted bug in GPUVerify's dialect: `__ensures` with `__implies` and `__old_int` claims every thread below n incremented its cell, but the guard is `threadIdx.x < n - 1`
__global__ void bug_old(int *a, int n) {
    __requires(n >= 1); __requires(gridDim.x == 1);
    __requires(blockDim.x == 4);
    __ensures(__implies(threadIdx.x < n, a[threadIdx.x] == __old_int(a[threadIdx.x]) + 1));
    if (threadIdx.x < n - 1) {
        a[threadIdx.x] = a[threadIdx.x] + 1;
    }
}
