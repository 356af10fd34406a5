// expect: verified
// GPUVerify's dialect: __write_implies(p, e) with __write_offset_bytes(p) (the byte offset of the recorded write) is the access fact \forall int k; \written(p, k) ==> e[k * sizeof(int)], proved as a loop invariant; __no_read(p) is !\read(p), __write(p) is \written(p).
__global__ void shifted_stride(int *out, int n) {
    __requires(blockDim.x == 4); __requires(gridDim.x == 1);
    __requires(n >= 0);
    for (int i = threadIdx.x;
         __invariant(i >= 0),
         __invariant(__write_implies(out, __write_offset_bytes(out) / sizeof(int) >= 1 &&
                                          (__write_offset_bytes(out) / sizeof(int) - 1) % blockDim.x == threadIdx.x)),
         __invariant(__no_read(out)),
         i < n; i += blockDim.x) {
        out[i + 1] = i;
    }
    __assert(__implies(__write(out), __write_implies(out, __write_offset_bytes(out) / sizeof(int) >= 1)));
    __assert(!__read(out));
}
