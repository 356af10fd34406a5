// expect: verified
// OpenCL: helper functions without qualifier are device functions: one inlined, one with a GPUVerify contract (__requires/__ensures/__return_val_int) checked at each call and verified once
int square(int x) { return x * x; }

int clamp_index(int i, int n) {
    __requires(n > 0);
    __ensures(0 <= __return_val_int() & __return_val_int() < n);
    return i < 0 ? 0 : (i >= n ? n - 1 : i);
}

__kernel void gather(__global int *a, __global int *out, int n) {
    __requires(get_local_size(0) == 4);
    __requires(get_num_groups(0) == 1);
    __requires(n > 0);
    __ensures(out[get_local_id(0)] >= 0);
    int k = clamp_index(get_local_id(0) - 1, n);
    out[get_local_id(0)] = square(a[k]);
}
