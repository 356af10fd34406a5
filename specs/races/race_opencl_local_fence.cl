// expect: failed data-race:10
// OpenCL: barrier(CLK_LOCAL_MEM_FENCE) orders local memory only; work-item 1 reads the global cell a[0] (line 10) that work-item 0 wrote (line 7).
__kernel void local_fence(__global int *a, __global int *out) {
    __requires(get_local_size(0) == 2);
    __requires(get_num_groups(0) == 1);
    if (get_local_id(0) == 0) {
        a[0] = 5;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_local_id(0)] = a[0];
}
