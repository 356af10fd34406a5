// expect: failed data-race:11
// allow-unknown: cvc5 data-race:11 -- cvc5 finds no model for the race of 1024 x 1024 work-items in 20 s (z3 does, in a second)
// 1024 work-groups of 1024 on __local memory: barrier(CLK_GLOBAL_MEM_FENCE) does not order local memory, so item l + 1's p[l + 1] (line 8) and item l's (line 11) race (GPUVerify's inter_group_and_barrier_flag_tests/fail/missing_local_barrier_flag). Nothing reads p: the race VCs leave its stores out, whose model z3 did not find in minutes.
__kernel void wrong_fence(__local int *p) {
    __requires(get_local_size(0) == 1024);
    __requires(get_num_groups(0) == 1024);
    p[get_local_id(0)] = get_global_id(0);

    barrier(CLK_GLOBAL_MEM_FENCE);

    p[get_local_id(0) + 1] = get_global_id(0);
}
