// expect: verified
// GPUVerify's annotation dialect: __requires/__ensures calls, __invariant before the guard of a while and a for loop, '&' and '|' on conditions, __implies, __enabled()
__global__ void dialect_loops(int *a, int *out, int m) {
    __requires(m >= 0);
    __ensures(out[threadIdx.x] == m * a[threadIdx.x] + 1);
    int acc = 0;
    int i = 0;
    while (__invariant(0 <= i & i <= m),
           __invariant(__implies(__enabled(), acc == i * a[threadIdx.x])),
           i < m) {
        acc += a[threadIdx.x];
        i++;
    }
    int d = 1;
    for (int s = 0;
         __invariant(d == 1 | d == 2 | d == 4 | d == 8),
         __invariant(s == 0 & d == 1 | s == 1 & d == 2 | s == 2 & d == 4 | s == 3 & d == 8),
         s < 3; s++) {
        d <<= 1;
    }
    __assert(d == 8);
    out[threadIdx.x] = acc + d / 8;
}
