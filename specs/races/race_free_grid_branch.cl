// expect: verified
// 1024 work-groups of 1024: all but the last item of each group store p[gid], then every item stores it again after a barrier of global memory. Each item only touches its own cell: the race-free twin of race_grid_branch_neighbour.cl (the branch's thread predicate as an equation must still let the race VCs be proved).
__kernel void free_branch(__global int *p) {
    __requires(get_local_size(0) == 1024);
    __requires(get_num_groups(0) == 1024);
    if (get_local_id(0) < get_local_size(0) - 1) {
        p[get_global_id(0)] = get_global_id(0);
    }

    barrier(CLK_GLOBAL_MEM_FENCE);

    p[get_global_id(0)] = get_group_id(0);
}
