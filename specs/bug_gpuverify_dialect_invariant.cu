// expect: failed loop-invariant-preserved:10
// planted bug in GPUVerify's dialect: `__invariant(__uniform_int(acc))` holds on entry but is not inductive (each thread adds 2 + tid % 2); a race hypothesis (__write_implies) is dropped with a warning
__global__ void bug_invariant(int *out, int m) {
    __requires(blockDim.x == 2); __requires(gridDim.x == 1);
    __requires(m >= 0);
    __requires(__write_implies(out, __write_offset_bytes(out) / sizeof(int) == threadIdx.x));
    int acc = 0;
    int i = 0;
    while (__invariant(acc >= 2 * i),
           __invariant(__uniform_int(acc)),
           i < m) {
        acc += 2 + threadIdx.x % 2;
        i++;
    }
    out[threadIdx.x] = acc;
}
