// expect: verified
// allow-unknown: cvc5 postcondition:10 -- as grid_transpose_2d.cu: z3 proves it, cvc5 not reliably within the time limit
// OpenCL: two-dimensional work-items (get_local_id/get_group_id/get_local_size/get_num_groups/get_global_id of dimension 0 and 1); a matrix transpose over 2x2 work-groups of 2x2
#define W 4
__kernel void transpose(__global int *in, __global int *out) {
    __requires(get_local_size(0) == 2);
    __requires(get_local_size(1) == 2);
    __requires(get_num_groups(0) == 2);
    __requires(get_num_groups(1) == 2);
    __ensures(out[get_global_id(0) * W + get_global_id(1)] == in[get_global_id(1) * W + get_global_id(0)]);
    int x = get_group_id(0) * get_local_size(0) + get_local_id(0);
    int y = get_global_id(1);
    out[x * W + y] = in[y * W + x];
}
