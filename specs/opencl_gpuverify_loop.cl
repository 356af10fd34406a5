// expect: verified
// OpenCL with GPUVerify's loop annotations: __invariant in the for-loop head (two of them), a stride of get_global_size, __assert in the body
__kernel void fill(__global int *a, int n) {
    __requires(get_local_size(0) == 4);
    __requires(get_num_groups(0) == 2);
    __requires(n >= 0);
    for (int i = get_global_id(0);
         __invariant(i >= get_global_id(0)),
         __invariant(i >= 0),
         i < n; i += get_global_size(0)) {
        a[i] = 7;
        __assert(a[i] == 7);
    }
}
// allow-unknown: cvc5 loop-invariant-preserved:7 -- the inferred access invariant of the loop (race checking); z3 proves it, cvc5 times out at 20 s
