// expect: failed data-race:11
// allow-unknown: cvc5 data-race:11 -- cvc5 finds no model for the race of 1024 x 1024 work-items in 20 s (z3 does, in a second)
// 1024 work-groups of 1024: each work-item stores p[gid] then p[gid + 1]; a CLK_GLOBAL_MEM_FENCE barrier orders a work-group only, so the last item of group g writes the cell the first of group g + 1 wrote (GPUVerify's inter_group_and_barrier_flag_tests/fail/sync). The stores' writer is the thread itself (no Skolem writer) and nothing reads p (the race VCs leave the stores out): z3 timed out on it before.
__kernel void neighbour(__global int *p) {
    __requires(get_local_size(0) == 1024);
    __requires(get_num_groups(0) == 1024);
    p[get_global_id(0)] = get_global_id(0);

    barrier(CLK_GLOBAL_MEM_FENCE);

    p[get_global_id(0) + 1] = get_global_id(0);
}
