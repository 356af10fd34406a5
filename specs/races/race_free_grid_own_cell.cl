// expect: verified
// 1024 work-groups of 1024: each work-item stores only p[gid], twice, with a barrier between; no two work-items share a cell. The race-free twin of race_grid_neighbour_store.cl.
__kernel void own_cell(__global int *p) {
    __requires(get_local_size(0) == 1024);
    __requires(get_num_groups(0) == 1024);
    p[get_global_id(0)] = get_global_id(0);

    barrier(CLK_GLOBAL_MEM_FENCE);

    p[get_global_id(0)] = get_global_id(0) + 1;
}
