// expect: verified
// OpenCL: the same kernel as race_opencl_local_fence.cl with CLK_GLOBAL_MEM_FENCE: the barrier orders the global write before the reads.
__kernel void global_fence(__global int *a, __global int *out) {
    __requires(get_local_size(0) == 2);
    __requires(get_num_groups(0) == 1);
    if (get_local_id(0) == 0) {
        a[0] = 5;
    }
    barrier(CLK_GLOBAL_MEM_FENCE);
    out[get_local_id(0)] = a[0];
}
