// expect: verified
// OpenCL: a file-scope __constant table holds its initialiser's values; int2 (a vector type) as a plain struct with .x and .y
__constant int weights[4] = {1, 2, 4, 8};

__kernel void weigh(__global int *out, __global int2 *pairs) {
    __requires(get_local_size(0) == 4);
    __requires(get_num_groups(0) == 1);
    __ensures(out[get_local_id(0)] == (1 << get_local_id(0)) + pairs[get_local_id(0)].y);
    int2 p = pairs[get_local_id(0)];
    p.x = weights[get_local_id(0)];
    out[get_local_id(0)] = p.x + p.y;
}
