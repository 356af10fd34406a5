// expect: failed data-race:12
// allow-unknown: cvc5 data-race:12 -- cvc5 finds no model for the race of 1024 x 1024 work-items in 20 s (z3 does, in seconds)
// 1024 work-groups of 1024: every work-item stores p[gid], then all but the last of each group store p[gid + 1]; the barrier's CLK_LOCAL_MEM_FENCE does not order global memory, so item l stores the cell item l + 1 stored (GPUVerify's inter_group_and_barrier_flag_tests/fail/sync_within_group_wrong_flag). The branch's thread predicate over 10^6 threads is an equation (Encoder.define_thread_pred): z3 timed out on it before.
__kernel void branch_neighbour(__global int *p) {
    __requires(get_local_size(0) == 1024);
    __requires(get_num_groups(0) == 1024);
    p[get_global_id(0)] = get_global_id(0);

    barrier(CLK_LOCAL_MEM_FENCE);

    if (get_local_id(0) < get_local_size(0) - 1) {
        p[get_global_id(0) + 1] = get_global_id(0);
    }
}
