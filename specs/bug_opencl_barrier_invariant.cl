// expect: failed loop-invariant-preserved:15
// Planted bug: the loop leaves s[lid] one higher each time, which breaks the function-wide invariant
__kernel void bug_opencl_barrier_invariant(__global int *out) {
    __requires(get_local_size(0) == 8); __requires(get_local_size(1) == 1); __requires(get_local_size(2) == 1); __requires(get_num_groups(0) == 1);
    __local int s[8];
    unsigned lid = get_local_id(0);
    s[lid] = lid;
    for (int i = 0; i < 3; i++) {
        s[lid] = s[lid] + 1;
        s[lid] = s[lid] - 0;
    }
    __barrier_invariant_binary_1(s[lid] != s[__other_int(lid)], lid, __other_int(lid));
    barrier(CLK_LOCAL_MEM_FENCE);
    out[lid] = s[lid];
    __function_wide_invariant(s[lid] == lid);
}
// allow-unknown: cvc5 data-race:10 -- the race VC of the strided write; z3 proves it, cvc5 times out at 20 s
