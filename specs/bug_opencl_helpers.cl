// expect: failed assertion:4
// planted bug: the helper's __requires(n > 0) is not met at the call (n may be 0); an inlined helper's __requires is an assertion at the call
int clamp_index(int i, int n) {
    __requires(n > 0);
    __ensures(0 <= __return_val_int() & __return_val_int() < n);
    return i < 0 ? 0 : (i >= n ? n - 1 : i);
}

__kernel void gather(__global int *a, __global int *out, int n) {
    __requires(get_local_size(0) == 4);
    __requires(n >= 0);
    int k = clamp_index(get_local_id(0) - 1, n);
    out[get_local_id(0)] = a[k];
}
