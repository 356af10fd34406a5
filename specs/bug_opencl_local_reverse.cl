// expect: failed barrier-divergence:9
// allow-unknown: cvc5 barrier-divergence:9 -- with the __local array of each work-group in the state cvc5 does not find the divergent work-item in time (z3 does)
// planted bug: a work-group barrier reached by work-items 0..3 only (barrier divergence) before the reversal through __local memory
__kernel void reverse(__global int *in, __global int *out) {
    __requires(get_local_size(0) == 8);
    __requires(get_num_groups(0) == 2);
    __local int s[8];
    int lid = get_local_id(0);
    if (lid < 4) barrier(CLK_LOCAL_MEM_FENCE);
    s[lid] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = s[7 - lid];
}
