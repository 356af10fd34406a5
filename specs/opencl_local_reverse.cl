// expect: verified
// allow-unknown: cvc5 postcondition:7 -- the reversal through per-work-group __local memory: z3 proves it, cvc5 not within the time limit
// OpenCL: a __local array per work-group, barrier(CLK_LOCAL_MEM_FENCE), each work-group reverses its slice; GPUVerify's __requires/__ensures
__kernel void reverse(__global int *in, __global int *out) {
    __requires(get_local_size(0) == 8);
    __requires(get_num_groups(0) == 2);
    __ensures(out[get_global_id(0)] == in[get_group_id(0) * 8 + 7 - get_local_id(0)]);
    __local int s[8];
    int lid = get_local_id(0);
    s[lid] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = s[7 - lid];
}
